"""What the profile tests share: the committed perf and llvm-mca output in
profiles/fixtures/."""
import os

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                        "..", "profiles", "fixtures")


def fixture(name):
    with open(os.path.join(FIXTURES, name)) as f:
        return f.read()
