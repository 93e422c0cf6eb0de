"""Build hook: generate the protobuf/gRPC modules (mazzo.v1) while building.

All metadata lives in pyproject.toml. The generated code is never committed, so a
wheel built from a clean clone must generate it: into the build folder for a
regular build, into server/ for an editable install (which imports from there).
"""

import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


class BuildPyWithProtos(build_py):
    def run(self) -> None:
        super().run()
        out = ROOT / "server" if self.editable_mode else Path(self.build_lib)
        gen = ROOT / "scripts" / "gen_proto.py"
        subprocess.run([sys.executable, str(gen), "--out", str(out)], check=True)


setup(cmdclass={"build_py": BuildPyWithProtos})
