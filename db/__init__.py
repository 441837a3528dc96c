"""SQLite strategy database and the database-backed player."""
