"""Build of bingwa: maps the top-level folders into the ``bingwa`` package
and compiles every ``.pyx`` under them. Metadata is in pyproject.toml.

BINGWA_CYTHON_DEBUG=1 compiles with bounds and wraparound checks on.
"""

import os
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).resolve().parent  # absolute: the include links must not dangle
# bingwa.<sub> lives in the top-level folder <sub> (the design card's layout)
SUBPACKAGES = ("engine", "protocol", "bots", "tournament")

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
        extensions.append(Extension(module, [rel.as_posix()], extra_compile_args=["-O3"]))


def cython_include_dir() -> str:
    """A folder where ``cimport bingwa.engine.core`` finds engine/core.pxd:
    the sources live in top-level folders, the package is named bingwa."""
    root = HERE / "build" / "cython-include"
    pkg = root / "bingwa"
    pkg.mkdir(parents=True, exist_ok=True)
    (pkg / "__init__.pxd").touch()
    for sub in SUBPACKAGES:
        link = pkg / sub
        if link.is_symlink() and os.readlink(link) != str(HERE / sub):
            link.unlink()  # dangling, or left by a checkout elsewhere
        if not link.exists():
            link.symlink_to(HERE / sub, target_is_directory=True)
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
        "bingwa.web": ["static/*"],  # the page's assets: nothing is fetched at run time
    },
    ext_modules=cythonize(
        extensions,
        compiler_directives=directives,
        include_path=[cython_include_dir()],
        nthreads=int(os.environ.get("BINGWA_BUILD_JOBS", "0")),
    ),
    zip_safe=False,
)
