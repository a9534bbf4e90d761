"""A learner at a JupyterHub, over HTTP: sign in, start a server, start a kernel, run code in it.

Used by ``tests/test_hub.py`` and ``benchmarks/bench_hub.py`` against the hub ``python3 run.py hub``
starts. Only what a browser does too: the login form (with JupyterHub's XSRF cookie), then the
hub's REST API with a token the learner makes for themself, then the learner's own Jupyter
server's REST API and its kernel websocket (the Jupyter messaging protocol, JSON).
Needs ``requests`` and ``websocket-client`` (both come with JupyterHub and Jupyter Server).
"""
from __future__ import annotations

import json
import time
import uuid

import requests
import websocket


class HubError(RuntimeError):
    """The hub or a learner's server answered something other than what a learner expects."""


class Learner:
    """One signed-in learner: their name, their API token, and the hub's address."""

    def __init__(self, hub_url: str, name: str, password: str, timeout_s: float = 60):
        """Sign ``name`` in with the room's ``password`` through the login form; raises ``HubError`` if refused."""
        self.hub_url, self.name, self.timeout_s = hub_url.rstrip("/"), name, timeout_s
        session = requests.Session()
        session.get(f"{self.hub_url}/hub/login", timeout=timeout_s).raise_for_status()
        reply = session.post(f"{self.hub_url}/hub/login", allow_redirects=False, timeout=timeout_s,
                             data={"username": name, "password": password, "_xsrf": session.cookies.get("_xsrf")})
        if reply.status_code != 302:
            raise HubError(f"signing in as {name!r}: the hub answered {reply.status_code}, not a redirect")
        # Signing in sets a new XSRF cookie, bound to the session; API calls by cookie must echo it.
        xsrf = [cookie.value for cookie in session.cookies if cookie.name == "_xsrf"][-1]
        reply = session.post(f"{self.hub_url}/hub/api/users/{name}/tokens", headers={"X-XSRFToken": xsrf},
                             json={"note": "ctxlib hub client", "expires_in": 3600}, timeout=timeout_s)
        if reply.status_code != 201:
            raise HubError(f"{name}: making an API token: {reply.status_code} {reply.text[:200]}")
        self.token = reply.json()["token"]
        self.headers = {"Authorization": f"token {self.token}"}
        self.kernel_id = None

    def api(self, method: str, path: str, **kwargs) -> requests.Response:
        """A request to ``<hub>/<path>`` with the learner's token."""
        return requests.request(method, f"{self.hub_url}/{path.lstrip('/')}", headers=self.headers,
                                timeout=self.timeout_s, **kwargs)

    def start_server(self) -> None:
        """Ask the hub to start this learner's server (returns at once; see ``wait_until_ready``)."""
        reply = self.api("POST", f"hub/api/users/{self.name}/server")
        if reply.status_code not in (201, 202):
            raise HubError(f"{self.name}: starting the server: {reply.status_code} {reply.text[:200]}")

    def wait_until_ready(self, timeout_s: float = 300) -> None:
        """Wait until the hub says this learner's server is ready; raises ``HubError`` after ``timeout_s`` seconds."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            server = self.api("GET", f"hub/api/users/{self.name}").json()["servers"].get("", {})
            if server.get("ready"):
                return
            time.sleep(0.25)
        raise HubError(f"{self.name}: the server was not ready within {timeout_s:.0f} s")

    def start_kernel(self) -> str:
        """Start a Python kernel in this learner's server; returns its id."""
        reply = self.api("POST", f"user/{self.name}/api/kernels", json={"name": "python3"})
        if reply.status_code != 201:
            raise HubError(f"{self.name}: starting a kernel: {reply.status_code} {reply.text[:200]}")
        self.kernel_id = reply.json()["id"]
        return self.kernel_id

    def run(self, code: str, timeout_s: float = 300) -> str:
        """Run ``code`` in the learner's kernel; returns what it printed. Raises ``HubError`` with its traceback on an error."""
        url = self.hub_url.replace("http", "ws", 1) + f"/user/{self.name}/api/kernels/{self.kernel_id}/channels"
        socket = websocket.create_connection(url, header=[f"Authorization: token {self.token}"], timeout=timeout_s)
        try:
            msg_id = uuid.uuid4().hex
            socket.send(json.dumps({
                "header": {"msg_id": msg_id, "username": self.name, "session": uuid.uuid4().hex,
                           "msg_type": "execute_request", "version": "5.3"},
                "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
                "content": {"code": code, "silent": False, "store_history": False, "user_expressions": {},
                            "allow_stdin": False, "stop_on_error": True}}))
            printed = []
            while True:
                message = json.loads(socket.recv())
                if message.get("parent_header", {}).get("msg_id") != msg_id:
                    continue
                kind, content = message["msg_type"], message["content"]
                if kind == "stream":
                    printed.append(content["text"])
                elif kind == "error":
                    raise HubError(f"{self.name}: the kernel raised {content['ename']}: {content['evalue']}\n"
                                   + "\n".join(content["traceback"]))
                elif kind == "status" and content["execution_state"] == "idle":
                    return "".join(printed)
        finally:
            socket.close()
