import os
import sys

# Test helpers (such as the independent rules oracle) live beside the tests.
sys.path.insert(0, os.path.dirname(__file__))
