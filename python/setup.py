"""Builds the extension grundy._grundy: the static library libgrundy.a is built with the
repository's CMake (or taken from $GRUNDY_BUILD_DIR), then linked into the module with cairo,
so the package needs no installed libgrundy. The repository is this folder's parent (or
$GRUNDY_SOURCE_DIR, for a copy of this folder elsewhere)."""
import os
import subprocess

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.environ.get("GRUNDY_SOURCE_DIR") or os.path.dirname(HERE)   # the repository


def pkg_config(*args):
    return subprocess.run(["pkg-config", *args, "cairo"], check=True, capture_output=True, text=True).stdout.split()


class BuildWithLibrary(build_ext):
    def run(self):
        build = os.environ.get("GRUNDY_BUILD_DIR")
        if not build:
            build = os.path.join(os.path.abspath(self.build_temp), "libgrundy")
            subprocess.run(["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Release", "-DGRUNDY_PYTHON=OFF"],
                           check=True)
            subprocess.run(["cmake", "--build", build, "--target", "grundy_lib", "-j", str(os.cpu_count() or 1)],
                           check=True)
        lib = os.path.join(os.path.abspath(build), "libgrundy.a")
        if not os.path.exists(lib):
            raise RuntimeError(f"no {lib}: build the library with CMake first")
        # nauty, when the library was built with it (games on boards, src/eval/board/canon.h)
        extra = []
        cache = os.path.join(os.path.abspath(build), "CMakeCache.txt")
        if os.path.exists(cache):
            for line in open(cache):
                if line.startswith("NAUTY_LIBRARY:") and not line.strip().endswith("NOTFOUND"):
                    extra.append(line.split("=", 1)[1].strip())
        for ext in self.extensions:
            ext.extra_objects = [lib] + extra
            ext.libraries = [flag[2:] for flag in pkg_config("--libs-only-l")] + ["m"]
            ext.library_dirs = [flag[2:] for flag in pkg_config("--libs-only-L")]
        super().run()


setup(
    ext_modules=[Extension("grundy._grundy", ["src/_grundy.c"], include_dirs=[os.path.join(ROOT, "include")],
                           extra_compile_args=["-std=c11"],
                           extra_link_args=["-pthread"])],
    cmdclass={"build_ext": BuildWithLibrary},
)
