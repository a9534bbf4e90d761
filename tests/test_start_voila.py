"""tools/start_voila.py: the kernel client's wait for a reply, polled in one-second slices."""
import asyncio
import importlib.util
from queue import Empty

import pytest

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
pytest.importorskip("jupyter_client")


def start_voila():
    spec = importlib.util.spec_from_file_location("start_voila", ROOT / "tools" / "start_voila.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Socket:
    """A shell socket whose first ``misses`` polls find nothing, as when a reply's wake-up is missed."""

    def __init__(self, misses: int):
        self.misses, self.polls = misses, []

    async def poll(self, timeout_ms):
        self.polls.append(timeout_ms)
        if len(self.polls) <= self.misses:
            return 0
        return 1


class Channel:
    def __init__(self, socket):
        self.socket = socket

    async def _recv(self):
        return {"msg_type": "execute_reply"}


@pytest.fixture
def get_msg(monkeypatch):
    from jupyter_client import channels

    monkeypatch.setattr(channels.AsyncZMQSocketChannel, "get_msg", channels.AsyncZMQSocketChannel.get_msg)
    module = start_voila()
    monkeypatch.setattr(module, "POLL_SLICE_MS", 10)
    module.repoll_in_slices()
    return channels.AsyncZMQSocketChannel.get_msg


def test_a_wait_without_a_deadline_polls_again_after_a_missed_reply(get_msg):
    # The original polled once with no timeout: after the first miss it never woke again.
    socket = Socket(misses=3)
    assert asyncio.run(get_msg(Channel(socket))) == {"msg_type": "execute_reply"}
    assert socket.polls == [10, 10, 10, 10]


def test_a_wait_with_a_deadline_still_ends_with_empty(get_msg):
    socket = Socket(misses=10**6)
    with pytest.raises(Empty):
        asyncio.run(get_msg(Channel(socket), timeout=0.05))
    assert 1 <= len(socket.polls) and all(0 <= p <= 10 for p in socket.polls)
