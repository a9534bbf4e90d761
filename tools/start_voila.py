"""Start Voila for ``run.py present`` with one workaround for a known hang.

Voila runs the notebook's cells itself, through jupyter_client's asyncio kernel client.
Waiting for a cell's ``execute_reply``, that client polls the shell socket once, with no
timeout. Now and then the poll misses a reply that has already arrived, and the page stops
at that cell forever while the kernel sits idle (voila-dashboards/voila#1428;
jupyter/jupyter_client#1010 proposes a fix). On this course it stopped Lesson 2 at its
loop explorer in about one load out of five.

The workaround polls in one-second slices instead: a slice that misses the reply is
followed by one that finds it. A wait with a deadline keeps its deadline, and nothing
else about the client changes.

Usage (as ``run.py voila_command`` builds it)::

    python tools/start_voila.py NOTEBOOK [voila options]
"""

import sys
import time
from queue import Empty

POLL_SLICE_MS = 1_000


def repoll_in_slices() -> None:
    """Replace ``AsyncZMQSocketChannel.get_msg`` by a version that polls in slices.

    Returns None. Raises nothing beyond an ImportError when jupyter_client is missing.
    """
    from jupyter_client.channels import AsyncZMQSocketChannel

    async def get_msg(self, timeout=None):
        """The next message on this channel; ``timeout`` in seconds (None: wait as long as it takes).

        Raises ``queue.Empty`` when ``timeout`` passes with no message, as the original does.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left_ms = POLL_SLICE_MS if deadline is None else int((deadline - time.monotonic()) * 1000)
            if await self.socket.poll(max(0, min(POLL_SLICE_MS, left_ms))):
                return await self._recv()
            if deadline is not None and time.monotonic() >= deadline:
                raise Empty

    AsyncZMQSocketChannel.get_msg = get_msg


if __name__ == "__main__":
    repoll_in_slices()
    from voila.app import main

    sys.exit(main())
