"""What the profile tests share: profiles/ on the import path, and the
committed perf and llvm-mca output in profiles/fixtures/."""
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "profiles"))


def fixture(name):
    with open(os.path.join(ROOT, "profiles", "fixtures", name)) as f:
        return f.read()
