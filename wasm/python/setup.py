"""Refuses to build the package without its module: `make wasm` at the
repository root puts it into notification_text/ (docs/adr/0040). The version
is the repository's VERSION, as the service's."""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
MODULE = HERE / "notification_text" / "notification-text.wasm"


class BuildWithModule(build_py):
    def run(self):
        if not MODULE.is_file():
            raise SystemExit(f"{MODULE} is missing: run `make wasm` at the repository root first")
        super().run()


def version():
    for folder in (HERE, *HERE.parents):
        if (folder / "VERSION").is_file():
            return (folder / "VERSION").read_text().strip()
    return "0"


setup(version=version(), cmdclass={"build_py": BuildWithModule})
