"""The wheel carries what the package needs outside a checkout: the runtime
headers that emitted CUDA includes (`runtime/include`) and the instruction
libraries (`stdlib`), copied from the repository into `exogpu/data` when the
package is built (pip wheel python/). The metadata is in pyproject.toml."""

import pathlib
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

REPOSITORY = pathlib.Path(__file__).resolve().parent.parent


class BuildWithData(build_py):
    """build_py, then the repository's runtime headers and instruction
    libraries into the built package."""

    def run(self):
        super().run()
        data = pathlib.Path(self.build_lib) / "exogpu" / "data"
        for source, target, pattern in (
                ("runtime/include", "runtime/include", "*.*"),
                ("stdlib", "stdlib", "*.mlir")):
            for file in sorted((REPOSITORY / source).rglob(pattern)):
                destination = data / target / file.relative_to(
                    REPOSITORY / source)
                destination.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(file, destination)


setup(cmdclass={"build_py": BuildWithData})
