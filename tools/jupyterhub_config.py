"""JupyterHub for one room: ``python3 run.py hub`` starts JupyterHub with this file.

Learners sign in with a name of their choice and the room's shared password
(``SharedPasswordAuthenticator``); each name gets a home of its own, ``<room>/homes/<name>/``,
with a copy of the lessons, and every quick check they answer lands in that home's
``.ctxlib/progress.json``, which ``python3 run.py hub-grade`` reads. Every learner's server runs as
the operating-system user running the hub (``SimpleLocalProcessSpawner``): fine for a trusted room,
no isolation between learners (see docs/instructors.md).

``run.py`` passes the settings in the environment (``CTXLIB_HUB_*``), so that the password never
appears on a command line. Everything the hub keeps is in the room folder.
"""
import hashlib
import os
import shutil
import sys
import tempfile
from pathlib import Path

c = get_config()  # noqa: F821 (JupyterHub defines it while it loads this file)

COURSE = Path(__file__).resolve().parent.parent
ROOM = Path(os.environ["CTXLIB_HUB_ROOM"])
BIN = Path(sys.executable).parent  # the course's .venv, where jupyterhub-singleuser is installed
FIRST_LESSON = "lessons/en/01_window_as_budget.ipynb"

c.JupyterHub.bind_url = f"http://{os.environ['CTXLIB_HUB_IP']}:{os.environ['CTXLIB_HUB_PORT']}"
# The hub's own API and the proxy's control port stay on this machine.
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = int(os.environ["CTXLIB_HUB_INTERNAL_PORT"])
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{os.environ['CTXLIB_HUB_PROXY_API_PORT']}"
c.ConfigurableHTTPProxy.command = [os.environ["CTXLIB_HUB_PROXY"]]
c.ConfigurableHTTPProxy.pid_file = str(ROOM / "jupyterhub-proxy.pid")
c.JupyterHub.db_url = f"sqlite:///{ROOM / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(ROOM / "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = str(ROOM / "jupyterhub.pid")
# Stopping the hub stops every learner's server (their homes stay).
c.JupyterHub.cleanup_servers = True

c.JupyterHub.authenticator_class = "shared-password"
c.SharedPasswordAuthenticator.user_password = os.environ["CTXLIB_HUB_PASSWORD"]
c.Authenticator.allow_all = True
# A name becomes a folder name: keep it to one safe path component.
c.Authenticator.username_pattern = r"^[a-z0-9][a-z0-9._-]{0,39}$"

c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = str(ROOM / "homes" / "{username}")
c.Spawner.cmd = [str(BIN / "jupyterhub-singleuser")]
c.Spawner.default_url = f"/lab/tree/{FIRST_LESSON}"
# Kernels talk to their server over Unix sockets, not TCP ports: a room starting twenty servers at
# once hit "Address already in use" when two servers handed the same free port to their kernels.
# The sockets live in a short runtime folder per learner (a socket's path may not exceed ~100 bytes).
RUNTIME = Path(tempfile.gettempdir()) / f"ctxlib-hub-{hashlib.sha256(str(ROOM).encode()).hexdigest()[:8]}"
c.Spawner.environment = {"JUPYTER_RUNTIME_DIR": lambda spawner: str(RUNTIME / spawner.user.name)}
c.Spawner.args = ["--KernelManager.transport=ipc"]
if hasattr(os, "geteuid") and os.geteuid() == 0:
    c.Spawner.args.append("--allow-root")
# A 2-core machine starting a whole room at once needs more than the default 60 s and 30 s.
c.Spawner.start_timeout = 180
c.Spawner.http_timeout = 120


def copy_course(spawner) -> None:
    """Before a learner's first server starts: copy the lessons into their home (never over their work)."""
    home = Path(spawner.home_dir)
    home.mkdir(parents=True, exist_ok=True)
    if not (home / "lessons").exists():
        shutil.copytree(COURSE / "lessons", home / "lessons",
                        ignore=shutil.ignore_patterns(".ipynb_checkpoints", ".*.ipynb"))


c.Spawner.pre_spawn_hook = copy_course
