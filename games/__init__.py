"""Game definitions: rules only, nothing about CFR."""
