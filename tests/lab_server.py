"""A real ``jupyter lab`` server for the browser tests, isolated from the user's Jupyter setup.

The server gets its own config, runtime, IPython and home folders under a temporary folder,
listens on a free 127.0.0.1 port with a random token, and is shut down without leaving a
server or kernel process behind. The data path keeps the venv's ``share/jupyter`` (the kernel
spec and the ipywidgets lab extension live there).
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

#: Environment variables that would point the server at the user's own Jupyter setup.
_FOREIGN_ENV = (
    "JUPYTER_PATH",
    "JUPYTER_CONFIG_PATH",
    "JUPYTER_TOKEN",
    "JUPYTER_PREFER_ENV_PATH",
    "JUPYTER_PLATFORM_DIRS",
    "JUPYTERLAB_DIR",
    "PYTHONSTARTUP",
)

#: User settings written before start: no news prompt (a toast that would cover the page).
_USER_SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {"fetchNews": "false", "checkForUpdates": False},
}


@dataclass
class LabServer:
    """A running server: its base URL, token, notebook root folder, process and log file."""

    url: str
    token: str
    root: Path
    process: subprocess.Popen[bytes]
    log: Path
    children: dict[int, psutil.Process] = field(default_factory=dict)

    def page_url(self, path: str) -> str:
        """URL of a JupyterLab path (e.g. ``lab/tree/x.ipynb``) with the token in the query."""
        sep = "&" if "?" in path else "?"
        return f"{self.url}{path}{sep}token={self.token}"

    def api(self, method: str, path: str) -> Any:
        """Call the server's REST API (``path`` under ``/api/``), return the decoded JSON or None."""
        request = urllib.request.Request(
            f"{self.url}api/{path}", method=method, headers={"Authorization": f"token {self.token}"}
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            body = response.read()
        return json.loads(body) if body else None

    def shutdown_kernels(self) -> None:
        """Shut down every session and kernel (between tests, so they do not pile up)."""
        self.remember_children()
        for session in self.api("GET", "sessions"):
            self.api("DELETE", f"sessions/{session['id']}")
        for kernel in self.api("GET", "kernels"):
            self.api("DELETE", f"kernels/{kernel['id']}")

    def remember_children(self) -> None:
        """Note the server's descendants (kernels run in their own sessions, so a process group is not enough).

        psutil.Process objects remember their start time: a reused pid is never mistaken for a kernel.
        """
        try:
            for proc in psutil.Process(self.process.pid).children(recursive=True):
                self.children.setdefault(proc.pid, proc)
        except psutil.NoSuchProcess:
            pass

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def isolated_env(base: Path) -> dict[str, str]:
    """Environment of the server: own config/data/runtime/IPython/home folders, the venv first on PATH."""
    env = {k: v for k, v in os.environ.items() if k not in _FOREIGN_ENV and not k.startswith("XDG_")}
    home = base / "home"
    dirs = {
        "HOME": home,
        "JUPYTER_CONFIG_DIR": base / "config",
        "JUPYTER_DATA_DIR": base / "data",  # user data only: sys.prefix/share/jupyter stays on the path
        "JUPYTER_RUNTIME_DIR": base / "runtime",
        "JUPYTERLAB_SETTINGS_DIR": base / "config" / "lab" / "user-settings",
        "JUPYTERLAB_WORKSPACES_DIR": base / "config" / "lab" / "workspaces",
        "IPYTHONDIR": base / "ipython",
        "MPLCONFIGDIR": base / "matplotlib",
        "XDG_CACHE_HOME": home / ".cache",
        "XDG_CONFIG_HOME": home / ".config",
        "XDG_DATA_HOME": home / ".local" / "share",
    }
    for path in dirs.values():
        path.mkdir(parents=True, exist_ok=True)
    env.update({k: str(v) for k, v in dirs.items()})
    # The venv's kernel spec runs plain "python": make that the venv's.
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["PYTHONUNBUFFERED"] = "1"
    for name, settings in _USER_SETTINGS.items():
        path = dirs["JUPYTERLAB_SETTINGS_DIR"] / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(settings))
    return env


def _wait_ready(server: LabServer, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"jupyter lab exited with code {server.process.returncode}:\n{server.log_tail()}")
        try:
            server.api("GET", "status")
            return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.2)
    raise RuntimeError(f"jupyter lab did not answer within {timeout:.0f} s:\n{server.log_tail()}")


def stop(server: LabServer, grace: float = 20.0) -> list[str]:
    """Stop the server (SIGTERM, then SIGKILL to its group), kill any surviving descendant.

    Returns a description of the processes that had to be killed (empty when the shutdown was clean).
    """
    server.remember_children()
    leftovers = []
    try:
        server.shutdown_kernels()
    except (urllib.error.URLError, ConnectionError, TimeoutError, json.JSONDecodeError):
        pass
    if server.process.poll() is None:
        server.process.send_signal(signal.SIGTERM)
        try:
            server.process.wait(grace)
        except subprocess.TimeoutExpired:
            leftovers.append(f"jupyter lab (pid {server.process.pid}) ignored SIGTERM for {grace:.0f} s")
            os.killpg(server.process.pid, signal.SIGKILL)
            server.process.wait(10)
    survivors = [p for p in server.children.values() if p.is_running()]
    _, alive = psutil.wait_procs(survivors, timeout=5)
    for proc in alive:
        try:
            leftovers.append(f"pid {proc.pid}: {' '.join(proc.cmdline())[:200]}")
            proc.kill()
        except psutil.NoSuchProcess:
            continue
    psutil.wait_procs(alive, timeout=5)
    return leftovers


@contextmanager
def lab_server(base: Path, root: Path, *, startup_timeout: float = 90.0) -> Iterator[LabServer]:
    """Run ``jupyter lab`` serving ``root``, with its private folders under ``base``.

    On exit the server is stopped; a RuntimeError names any process that outlived it.
    """
    env = isolated_env(base)
    token = secrets.token_hex(24)
    log = base / "jupyter-lab.log"
    for attempt in range(3):  # the free port may be taken between probe and bind
        port = free_port()
        args = [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={port}",
            "--ServerApp.port_retries=0",
            f"--ServerApp.root_dir={root}",
            f"--IdentityProvider.token={token}",
            "--ServerApp.terminals_enabled=False",
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            "--LabApp.extension_manager=readonly",
        ]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            args.append("--allow-root")  # containers and CI runners often run as root
        with log.open("ab") as out:
            process = subprocess.Popen(
                args, cwd=root, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=out, start_new_session=True
            )
        server = LabServer(f"http://127.0.0.1:{port}/", token, root, process, log)
        try:
            _wait_ready(server, startup_timeout)
            break
        except RuntimeError:
            exited_early = process.poll() is not None  # e.g. the port was taken: try another
            stop(server)
            if attempt == 2 or not exited_early:
                raise
    try:
        yield server
    finally:
        leftovers = stop(server)
        if leftovers:
            raise RuntimeError("processes outlived the JupyterLab server (now killed):\n" + "\n".join(leftovers))
