"""The ctgrind verdict beside a scenario's rows (`make ctgrind`,
cyclebench.leak.ctgrind): for each variant, the report `make ctgrind`
writes (<leak dir>/<kernel>@<isa>.ctgrind.txt) when it is at least as new
as the driver that would check it now; else, when valgrind and the driver
are there, a fresh check, written where `make ctgrind` writes it so that
the next run reads it; else a note saying how to get one."""
import os
import shutil

from ..leak import ctgrind


def report_path(leak_dir, kernel, isa):
    return os.path.join(leak_dir, f"{kernel}@{isa}.ctgrind.txt")


def report_summary(path):
    """A report's verdict line ("clean", "8 sites", "not checkable ..."),
    or None when there is no readable report."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = [line.strip() for line in f
                     if line.strip() and not line.startswith("#")]
    except OSError:
        return None
    return lines[0] if lines else None


class Verdicts:
    """Verdicts for one scenario run: leak_dir holds the reports; driver
    (build/ctgrind-driver) checks a variant afresh, None or missing for
    reports only; env is added to the driver's environment (OpenSSL with
    AES-NI masked), whose reports then belong in a directory of their
    own."""

    def __init__(self, leak_dir, driver=None, env=None):
        self.leak_dir = leak_dir
        self.driver = driver if driver and os.access(driver, os.X_OK) \
            else None
        self.env = env
        self.version = None

    def fresh_report(self, kernel, isa):
        if not self.leak_dir:
            return None
        path = report_path(self.leak_dir, kernel, isa)
        if not os.path.exists(path):
            return None
        if self.driver and os.path.getmtime(path) < \
                os.path.getmtime(self.driver):
            return None  # checked by an older build
        return report_summary(path)

    def check(self, kernel, isa, supported):
        if not (self.leak_dir and self.driver and shutil.which("valgrind")):
            return None
        self.version = self.version or ctgrind.valgrind_version()
        opts = ctgrind.Options(driver=self.driver, out=self.leak_dir)
        v = ctgrind.check_variant(kernel, isa, supported, opts, self.version,
                                  self.env)
        ctgrind.write_report(v, self.leak_dir, self.version)
        return v.summary()

    def summary(self, kernel, isa, supported):
        return self.fresh_report(kernel, isa) or \
            self.check(kernel, isa, supported)

    def note(self, registry):
        """A note(kernel, isa) for Table.add_variants: "ctgrind: <verdict>",
        or how to get one."""
        def note(kernel, isa):
            supported = any(i.name == isa and i.supported
                            for i in registry.variants(kernel))
            said = self.summary(kernel, isa, supported)
            if said:
                return f"ctgrind: {said}"
            return (f"ctgrind: not checked (make ctgrind KERNEL={kernel} "
                    f"ISA={isa})")
        return note
