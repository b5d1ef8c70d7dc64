"""The torch source's bridge, built at first use for the torch a program imports.

A prof built with Debian's libtorch-dev carries a bridge for that torch.
Any other (a pip wheel of 1.13 to the newest 2.x, CPU or CUDA) gets the
same bridge source compiled against its own headers, which every wheel
ships, once per torch build: the result is kept in a cache keyed by the
bridge's source, the torch libraries' identity and the Python ABI, so a
later run, or another rank of the same job, loads it at once. Ranks that
start together wait for the one that builds it.

Whatever stops the build (no compiler, no Python headers, a compiler error)
is said in one line naming what to do, and remembered in the cache so that
later runs say it again at once without retrying; the program runs on.
"""

import fcntl
import hashlib
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile

_SOURCE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "torch-bridge-source")
_SOURCES = ("prof_torch_bridge.cpp", "recorder_api.h")
_LIBRARIES = ("libtorch_python", "libtorch_cpu", "libc10")


class BridgeUnavailable(Exception):
    """Why the bridge cannot serve this torch: one line, with what to do."""


def loaded_libraries():
    """{stem: real path} of the torch libraries this process has mapped."""
    found = {}
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:
                path = line.rstrip("\n").split(" ")[-1]
                name = os.path.basename(path)
                for stem in _LIBRARIES:
                    if stem not in found and name.startswith(stem + ".so"):
                        found[stem] = os.path.realpath(path)
    except OSError:
        pass
    return found


def _cache_root():
    explicit = os.environ.get("PROF_TORCH_BRIDGE_CACHE")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "prof", "torch-bridge")


def _writable_cache_root():
    for root in (_cache_root(),
                 os.path.join(tempfile.gettempdir(), f"prof-torch-bridge-{os.getuid()}")):
        try:
            os.makedirs(root, exist_ok=True)
            if os.access(root, os.W_OK):
                return root
        except OSError:
            continue
    raise BridgeUnavailable("no folder to keep the torch source's bridge in: set "
                            "PROF_TORCH_BRIDGE_CACHE to a writable folder")


def _compiler():
    named = os.environ.get("CXX")
    for candidate in ([named] if named else []) + ["g++", "c++", "clang++"]:
        path = shutil.which(candidate)
        if path:
            return path
    return None


def _build_key(torch, libraries, compiler):
    digest = hashlib.sha256()
    for name in _SOURCES:
        with open(os.path.join(_SOURCE_DIR, name), "rb") as source:
            digest.update(source.read())
    for stem in _LIBRARIES:
        path = libraries[stem]
        info = os.stat(path)
        digest.update(f"{path}:{info.st_size}:{info.st_mtime_ns}\n".encode())
    digest.update(f"{torch.__version__}:{sysconfig.get_config_var('EXT_SUFFIX')}:"
                  f"{compiler}\n".encode())
    return digest.hexdigest()[:24]


def _command(torch, libraries, compiler, output):
    torch_dir = os.path.dirname(os.path.abspath(torch.__file__))
    include_dirs = [_SOURCE_DIR]
    for folder in ("include", os.path.join("include", "torch", "csrc", "api", "include")):
        path = os.path.join(torch_dir, folder)
        if os.path.isdir(path):
            include_dirs.append(path)
    python_include = sysconfig.get_paths()["include"]
    if not os.path.exists(os.path.join(python_include, "Python.h")):
        raise BridgeUnavailable(
            f"building the torch source's bridge for torch {torch.__version__} needs Python's "
            f"headers ({python_include}/Python.h): install python3-dev")
    include_dirs.append(python_include)
    major = int(str(torch.__version__).split(".")[0])
    command = [compiler, "-std=c++17" if major < 2 else "-std=c++20", "-O2", "-shared", "-fPIC",
               "-w", "-DNDEBUG", "-DUSE_C10D_GLOO", "-DUSE_DISTRIBUTED",
               f"-D_GLIBCXX_USE_CXX11_ABI={int(bool(torch._C._GLIBCXX_USE_CXX11_ABI))}"]
    # Older torch names the pybind11 ABI its types are registered under.
    for name in ("COMPILER_TYPE", "STDLIB", "BUILD_ABI"):
        value = getattr(torch._C, f"_PYBIND11_{name}", None)
        if value is not None:
            command.append(f'-DPYBIND11_{name}="{value}"')
    command += ["-I" + folder for folder in include_dirs]
    command += [os.path.join(_SOURCE_DIR, _SOURCES[0]), "-o", output]
    command += [libraries[stem] for stem in _LIBRARIES]
    for folder in sorted({os.path.dirname(libraries[stem]) for stem in _LIBRARIES}):
        command.append("-Wl,-rpath," + folder)
    return command


def _first_error(log):
    for line in log.splitlines():
        if "error" in line:
            return line.strip()
    lines = [line.strip() for line in log.splitlines() if line.strip()]
    return lines[-1] if lines else "no output"


class BridgePlace:
    """Where the bridge for this process's torch is kept, and how it is built.
    Raises BridgeUnavailable, saying why, when it cannot be had."""

    def __init__(self, torch):
        self.torch = torch
        self.libraries = loaded_libraries()
        missing = [stem for stem in _LIBRARIES if stem not in self.libraries]
        if missing:
            raise BridgeUnavailable(f"torch {torch.__version__}'s libraries are not mapped "
                                    f"({', '.join(missing)} not found)")
        if not all(os.path.exists(os.path.join(_SOURCE_DIR, name)) for name in _SOURCES):
            raise BridgeUnavailable(f"the torch source's bridge source is missing from "
                                    f"{_SOURCE_DIR}: reinstall prof")
        self.compiler = _compiler()
        if self.compiler is None:
            raise BridgeUnavailable(
                f"the torch source serves torch {torch.__version__} by building its bridge once "
                f"against it, and no C++ compiler was found: install g++ (apt-get install g++) "
                f"or name one in CXX")
        self.folder = os.path.join(_writable_cache_root(),
                                   _build_key(torch, self.libraries, self.compiler))
        self.module = os.path.join(self.folder,
                                   "_prof_torch" + sysconfig.get_config_var("EXT_SUFFIX"))
        self.failure = os.path.join(self.folder, "failed")

    def built(self):
        """Whether an earlier run built it."""
        return os.path.exists(self.module)

    def load(self, say):
        """The bridge module, built now if no earlier run built it (`say`
        tells the user so); a build that failed before is said, not retried."""
        if not self.built():
            os.makedirs(self.folder, exist_ok=True)
            with open(os.path.join(self.folder, "lock"), "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)  # ranks started together: one builds
                if os.path.exists(self.failure):
                    with open(self.failure) as failed:
                        raise BridgeUnavailable(failed.read().strip())
                if not self.built():
                    self._build(say)
        try:
            loader = importlib.machinery.ExtensionFileLoader("_prof_torch", self.module)
            spec = importlib.util.spec_from_file_location("_prof_torch", self.module,
                                                          loader=loader)
            module = importlib.util.module_from_spec(spec)
            loader.exec_module(module)
        except ImportError as error:
            raise BridgeUnavailable(f"the torch source's bridge built for torch "
                                    f"{self.torch.__version__} did not load: {error}") from None
        sys.modules["_prof_torch"] = module
        return module

    def _build(self, say):
        version = self.torch.__version__
        say(f"building the torch source's bridge for torch {version} "
            f"(once per torch build, kept in {self.folder})")
        temporary = self.module + f".{os.getpid()}.tmp"
        # The compiler must not load prof's preloaded agent and sources.
        environment = {key: value for key, value in os.environ.items()
                       if key != "LD_PRELOAD" and not key.startswith("PROF_")}
        try:
            done = subprocess.run(_command(self.torch, self.libraries, self.compiler, temporary),
                                  env=environment, stdin=subprocess.DEVNULL,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                  check=False)
            failed, log = done.returncode != 0, done.stdout
        except OSError as error:
            failed, log = True, str(error)
        if not failed:
            os.replace(temporary, self.module)
            return
        log_path = self.failure + ".log"
        with open(log_path, "w") as out:
            out.write(log)
        why = (f"the torch source's bridge did not build for torch {version} "
               f"({_first_error(log)}; the whole log in {log_path})")
        with open(self.failure, "w") as out:
            out.write(why)
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise BridgeUnavailable(why)
