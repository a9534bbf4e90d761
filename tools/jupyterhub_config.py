"""JupyterHub for one room: ``python3 run.py hub`` starts JupyterHub with this file.

Learners sign in with a name of their choice and the room's shared password; the login page
(``tools/hub_templates/login.html``) also asks for English or Hindi, and signing in opens
Lesson 1 in that language. A name is normalized or refused by ``ctxlib.course.room.sign_in_name``
("Asha Rao" -> "asha.rao"), and a refusal says on the login page which rule it broke.

**Run as root** (a container, a workshop VM), each learner is a system user of their own,
``ctx-<name>``, created with ``useradd`` on first sign-in, as The Littlest JupyterHub does it:
their server and kernels run as that user (JupyterHub's ``LocalProcessSpawner``), never as
root, in a private home ``<room>/homes/<name>`` (mode 0700, theirs) with a copy of the lessons.
The hub's database, cookie secret and password, and the grades ``run.py hub-grade`` writes, are in
``<room>/private`` (mode 0700, root's), which no learner can read.

**Run as another user**, every learner's server runs as that user: no isolation at all, so the
hub serves the first name that signs in and refuses any other, unless ``run.py hub --shared-account``
set ``CTXLIB_HUB_SHARED_ACCOUNT=1`` (then homes are ``<room>/homes/<name>`` under one account).

``run.py`` passes the settings in the environment (``CTXLIB_HUB_*``), so that the password never
appears on a command line. Everything the hub keeps is in the room folder.
"""
import hashlib
import os
import pwd
import subprocess
import sys
import tempfile
from pathlib import Path

from jupyterhub.authenticators.shared import SharedPasswordAuthenticator
from jupyterhub.handlers.login import LoginHandler
from jupyterhub.spawner import LocalProcessSpawner, SimpleLocalProcessSpawner, set_user_setuid
from jupyterhub.utils import url_path_join

from ctxlib.course.room import (NAME_PATTERN, NameRefused, copy_lessons, login_words, name_rule_text, sign_in_name,
                                system_user)
from ctxlib.i18n import LANGS

c = get_config()  # noqa: F821 (JupyterHub defines it while it loads this file)

COURSE = Path(__file__).resolve().parent.parent
ROOM = Path(os.environ["CTXLIB_HUB_ROOM"])
HOMES = ROOM / "homes"
PRIVATE = ROOM / "private"  # the hub's secrets and the grades: 0700, never a learner's to read
BIN = Path(sys.executable).parent  # the course's .venv, where jupyterhub-singleuser is installed
ISOLATED = os.geteuid() == 0
SHARED_ACCOUNT = os.environ.get("CTXLIB_HUB_SHARED_ACCOUNT") == "1"
ONLY_LEARNER = PRIVATE / "only-learner"  # without root and --shared-account: the one name served


def first_lesson(lang: str) -> str:
    return f"lessons/{lang}/01_window_as_budget.ipynb"


c.JupyterHub.bind_url = f"http://{os.environ['CTXLIB_HUB_IP']}:{os.environ['CTXLIB_HUB_PORT']}"
# The hub's own API and the proxy's control port stay on this machine.
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = int(os.environ["CTXLIB_HUB_INTERNAL_PORT"])
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{os.environ['CTXLIB_HUB_PROXY_API_PORT']}"
c.ConfigurableHTTPProxy.command = [os.environ["CTXLIB_HUB_PROXY"]]
c.ConfigurableHTTPProxy.pid_file = str(PRIVATE / "jupyterhub-proxy.pid")
c.JupyterHub.db_url = f"sqlite:///{PRIVATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(PRIVATE / "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = str(PRIVATE / "jupyterhub.pid")
# Stopping the hub stops every learner's server (their homes stay).
c.JupyterHub.cleanup_servers = True
c.JupyterHub.template_paths = [str(COURSE / "tools" / "hub_templates")]


def one_learner_refusal(name: str):
    """Without isolation and without --shared-account: ``None`` for the room's one learner, else the refusal."""
    if ISOLATED or SHARED_ACCOUNT:
        return None
    if not ONLY_LEARNER.exists():
        ONLY_LEARNER.write_text(name + "\n", encoding="utf-8")
    first = ONLY_LEARNER.read_text(encoding="utf-8").strip()
    return None if first == name else NameRefused("one_learner", name=first)


class RoomLoginHandler(LoginHandler):
    """The login form: a refused name or password is named on the page, in the learner's language."""

    async def refuse(self, refusal: NameRefused, lang: str, typed: str) -> None:
        self.set_status(403)
        self.finish(await self._render(login_error=name_rule_text(refusal.code, lang, **refusal.params),
                                       username=typed[:60], lang=lang))

    def render_template(self, name, **ns):
        lang = self.get_argument("lang", "en")
        ns.setdefault("lang", lang if lang in LANGS else "en")
        ns["words"] = {language: login_words(language) for language in LANGS}
        return super().render_template(name, **ns)

    async def post(self):
        typed = self.get_argument("username", "", strip=True)
        lang = self.get_argument("lang", "en")
        lang = lang if lang in LANGS else "en"
        try:
            name = sign_in_name(typed)
        except NameRefused as refusal:
            return await self.refuse(refusal, lang, typed)
        refusal = one_learner_refusal(name)
        if refusal is not None:
            return await self.refuse(refusal, lang, typed)
        user = await self.login_user({"username": name, "password": self.get_argument("password", "")})
        if not user:
            return await self.refuse(NameRefused("password"), lang, typed)
        self._jupyterhub_user = user
        lesson = url_path_join(self.hub.base_url, "user-redirect", "lab", "tree", first_lesson(lang))
        self.redirect(self.get_next_url(user, default=lesson) if self.get_argument("next", "") else lesson)


class RoomAuthenticator(SharedPasswordAuthenticator):
    """The room's shared password, names by ``sign_in_name``'s rule, and the login form above."""

    def normalize_username(self, username):
        try:
            return sign_in_name(username)
        except NameRefused:
            return username  # validate_username refuses it; the login form has already said why

    def validate_username(self, username):
        return bool(NAME_PATTERN.fullmatch(username))

    def get_handlers(self, app):
        return [("/login", RoomLoginHandler)]


c.JupyterHub.authenticator_class = RoomAuthenticator
c.SharedPasswordAuthenticator.user_password = os.environ["CTXLIB_HUB_PASSWORD"]
c.Authenticator.allow_all = True

# Kernels talk to their server over Unix sockets, not TCP ports: a room starting twenty servers at
# once hit "Address already in use" when two servers handed the same free port to their kernels.
# The sockets live in a short runtime folder per learner (a socket's path may not exceed ~100 bytes).
RUNTIME = Path(tempfile.gettempdir()) / f"ctxlib-hub-{hashlib.sha256(str(ROOM).encode()).hexdigest()[:8]}"


def ensure_learner(name: str) -> pwd.struct_passwd:
    """The system user for learner ``name`` (``system_user``), made with ``useradd`` if new; root only.

    No password (no one signs in to the machine as it), a group of its own, the shell /bin/bash
    for JupyterLab's terminal, the home ``<room>/homes/<name>``. Raises ``RuntimeError`` if
    ``useradd`` fails, or if the user exists with another home (a user this hub did not make).
    """
    user, home = system_user(name), HOMES / name
    try:
        entry = pwd.getpwnam(user)
    except KeyError:
        done = subprocess.run(["useradd", "--home-dir", str(home), "--no-create-home", "--user-group",
                               "--shell", "/bin/bash", "--comment", f"ctxlib learner {name}", user],
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"useradd {user} failed: {done.stderr.strip()}") from None
        entry = pwd.getpwnam(user)
    if Path(entry.pw_dir) != home:
        raise RuntimeError(f"the system user {user} exists with the home {entry.pw_dir}, not {home}; "
                           f"it is not this room's (userdel {user}, or use another --room)")
    return entry


def private_folder(path: Path, owner: pwd.struct_passwd | None) -> None:
    """Make ``path`` a folder only ``owner`` (default: this process's user) can enter: mode 0700."""
    path.mkdir(parents=True, exist_ok=True)
    if owner is not None:
        os.chown(path, owner.pw_uid, owner.pw_gid)
    os.chmod(path, 0o700)


private_folder(PRIVATE, None)


class LearnerSpawner(LocalProcessSpawner):
    """Each learner's server as their own system user ``ctx-<name>`` (see ``ensure_learner``)."""

    def make_preexec_fn(self, name):
        return set_user_setuid(system_user(name))

    def user_env(self, env):
        entry = pwd.getpwnam(system_user(self.user.name))
        env.update(USER=entry.pw_name, HOME=entry.pw_dir, SHELL=entry.pw_shell)
        return env


if ISOLATED:
    c.JupyterHub.spawner_class = LearnerSpawner
    HOMES.mkdir(exist_ok=True)
    os.chmod(HOMES, 0o711)  # a learner reaches their own home, and cannot list the others'
else:
    c.JupyterHub.spawner_class = SimpleLocalProcessSpawner
    c.SimpleLocalProcessSpawner.home_dir_template = str(HOMES / "{username}")
c.Spawner.cmd = [str(BIN / "jupyterhub-singleuser")]
c.Spawner.notebook_dir = "~"
c.Spawner.default_url = f"/lab/tree/{first_lesson('en')}"
c.Spawner.environment = {"JUPYTER_RUNTIME_DIR": lambda spawner: str(RUNTIME / spawner.user.name)}
c.Spawner.args = ["--KernelManager.transport=ipc"]
# A 2-core machine starting a whole room at once needs more than the default 60 s and 30 s.
c.Spawner.start_timeout = 180
c.Spawner.http_timeout = 120


def prepare_home(spawner) -> None:
    """Before a learner's server starts: their user (as root), their private home, the lessons, a runtime folder."""
    name = spawner.user.name
    owner = ensure_learner(name) if ISOLATED else None
    home = HOMES / name
    private_folder(home, owner)
    copy_lessons(COURSE / "lessons", home, owner)  # as the learner: root writes nothing in their home
    RUNTIME.mkdir(mode=0o711, exist_ok=True)
    if RUNTIME.is_symlink() or RUNTIME.stat().st_uid != os.geteuid():  # made by someone else to catch sockets
        raise RuntimeError(f"{RUNTIME} belongs to another user; remove it and start the hub again")
    os.chmod(RUNTIME, 0o711)  # learners may enter it to reach their own folder, not list it
    private_folder(RUNTIME / name, owner)


c.Spawner.pre_spawn_hook = prepare_home
