"""Build of bingwa: maps the top-level folders into the ``bingwa`` package
and compiles every ``.pyx`` under them. Metadata is in pyproject.toml.

BINGWA_CYTHON_DEBUG=1 compiles with bounds and wraparound checks on.
"""

import os
import shutil
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
# bingwa.<sub> lives in the top-level folder <sub> (the design card's layout)
SUBPACKAGES = ("engine", "protocol", "bots", "tournament")
# the optimisation flag in the spelling of the compiler that builds
OPTIMISE = {"msvc": ["/O2"]}
OPTIMISE_DEFAULT = ["-O3"]

package_dir = {"bingwa": "bingwa"}
packages = ["bingwa", "bingwa.web"]  # the CLI package and the web front-end
for sub in SUBPACKAGES:
    for init in sorted((HERE / sub).rglob("__init__.py")):
        rel = init.parent.relative_to(HERE)
        name = "bingwa." + ".".join(rel.parts)
        package_dir[name] = rel.as_posix()
        packages.append(name)

extensions = []
for sub in SUBPACKAGES:
    for pyx in sorted((HERE / sub).rglob("*.pyx")):
        rel = pyx.relative_to(HERE)
        module = "bingwa." + ".".join(rel.with_suffix("").parts)
        extensions.append(Extension(module, [rel.as_posix()]))


class BuildExt(build_ext):
    """build_ext with the optimisation flag the compiler understands (GCC
    and Clang: -O3; MSVC: /O2, which would warn about -O3 and ignore it)."""

    def build_extensions(self):
        flags = OPTIMISE.get(self.compiler.compiler_type, OPTIMISE_DEFAULT)
        for ext in self.extensions:
            ext.extra_compile_args = [*flags, *ext.extra_compile_args]
        super().build_extensions()


def cython_include_dir() -> str:
    """A folder where ``cimport bingwa.engine.core`` finds engine/core.pxd:
    the sources live in top-level folders, the package is named bingwa, so
    every .pxd is copied to build/cython-include/bingwa/<sub>/ (copies, not
    links: a build needs nothing that Windows refuses). A copy is written
    only when it differs from its source and keeps the source's time stamp,
    so Cython's dependency check rebuilds what it would from the source;
    copies whose source is gone are removed."""
    root = HERE / "build" / "cython-include"
    pkg = root / "bingwa"
    for sub in SUBPACKAGES:  # links made by an older setup.py
        if (pkg / sub).is_symlink():
            (pkg / sub).unlink()
    wanted = {pkg / "__init__.pxd"}
    for sub in SUBPACKAGES:
        for pxd in sorted((HERE / sub).rglob("*.pxd")):
            target = pkg / pxd.relative_to(HERE)
            folder = target.parent
            while folder != pkg:  # each folder a package for Cython
                wanted.add(folder / "__init__.pxd")
                folder = folder.parent
            wanted.add(target)
            if not target.is_file() or target.read_bytes() != pxd.read_bytes():
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(pxd, target)
    for path in sorted(wanted):
        if path.name == "__init__.pxd" and not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.touch()
    if pkg.is_dir():
        for path in pkg.rglob("*.pxd"):
            if path not in wanted:
                path.unlink()
    return str(root)


debug = os.environ.get("BINGWA_CYTHON_DEBUG", "") not in ("", "0")
directives = {
    "language_level": 3,
    "boundscheck": debug,
    "wraparound": debug,
    "initializedcheck": debug,
    "cdivision": not debug,
    "embedsignature": True,
}

setup(
    packages=packages,
    package_dir=package_dir,
    package_data={
        **{name: ["*.pxd", "*.pyx"] for name in packages},
        "bingwa.engine": ["*.pxd", "*.pyx", "net_*.txt"],  # the learned evaluation's networks
        "bingwa.web": ["static/*"],  # the page's assets: nothing is fetched at run time
    },
    ext_modules=cythonize(
        extensions,
        compiler_directives=directives,
        include_path=[cython_include_dir()],
        nthreads=int(os.environ.get("BINGWA_BUILD_JOBS", "0")),
    ),
    cmdclass={"build_ext": BuildExt},
    zip_safe=False,
)
