"""All-or-nothing output: every file goes to a temporary name beside its
destination and is renamed into place only once all of them are written,
so nothing is half-written.
"""
import io
import os
import tempfile


class StagedFiles:
    """Files written to temporary names, renamed into place by commit().
    Used as a context manager, leaving early removes the temporaries."""

    def __init__(self, directory):
        self.directory = directory
        self.staged = []  # (temporary path, final path)

    def add_bytes(self, name, data):
        os.makedirs(self.directory, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp",
                                   dir=self.directory)
        self.staged.append((tmp, os.path.join(self.directory, name)))
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)

    def add_text(self, name, text):
        self.add_bytes(name, text.encode("utf-8"))

    def add_figure(self, stem, figure, formats=("png", "svg")):
        """The figure as <stem>.png and <stem>.svg; closes it."""
        import matplotlib.pyplot as plt
        for fmt in formats:
            buf = io.BytesIO()
            figure.savefig(buf, format=fmt, dpi=110, bbox_inches="tight")
            self.add_bytes(f"{stem}.{fmt}", buf.getvalue())
        plt.close(figure)

    def names(self):
        return [os.path.basename(final) for _, final in self.staged]

    def commit(self):
        for tmp, final in self.staged:
            os.replace(tmp, final)
        self.staged = []

    def discard(self):
        for tmp, _ in self.staged:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
        self.staged = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.discard()
        return False
