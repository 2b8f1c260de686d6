"""Refuses to build the package without its modules: `make wasm` at the
repository root puts it into notification_text/ (docs/adr/0040). The version
is the repository's VERSION, as the service's."""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
MODULES = [HERE / "notification_text" / name for name in ("notification-text.wasm", "notification-text-relay.wasm")]


class BuildWithModule(build_py):
    def run(self):
        for module in MODULES:
            if not module.is_file():
                raise SystemExit(f"{module} is missing: run `make wasm` at the repository root first")
        super().run()


def version():
    for folder in (HERE, *HERE.parents):
        if (folder / "VERSION").is_file():
            return (folder / "VERSION").read_text().strip()
    return "0"


setup(version=version(), cmdclass={"build_py": BuildWithModule})
