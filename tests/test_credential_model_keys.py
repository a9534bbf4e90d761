"""Model providers' API keys found by their prefix alone (``model-provider-key``, ctxlib/secretformats.py).

prefixed-token takes a vendor's prefix and 30 or more letters and digits of both cases. Some providers' keys are
not of that shape: one case (OpenRouter's ``sk-or-v1-`` and 64 hex digits, DeepSeek's ``sk-`` and 32, Cerebras'
``csk-``), shorter (Fireworks' ``fw_``) or in parts (Pinecone's ``pcsk_``, Together's ``tgp_v1_``). Passed by
position or named in a comment, no secret's word stands near them, and they were packed. Values are drawn at run
time from a seeded generator, so this file holds no string a scanner would take for a real credential.
"""
import random
import string

import pytest

from ctxlib.credentials import find_secrets

_rnd = random.Random(2026)
HEX, LOWER = "0123456789abcdef", string.ascii_lowercase + string.digits
ALNUM = string.ascii_letters + string.digits


def fake(n, alphabet=ALNUM):
    return "".join(_rnd.choice(alphabet) for _ in range(n))


KEYS = {
    "OpenRouter": "sk-or-v1-" + fake(64, HEX),
    "DeepSeek": "sk-" + fake(32, HEX),
    "Cerebras": "csk-" + fake(48, LOWER),
    "Pinecone": "pcsk_" + fake(5) + "_" + fake(60),
    "Fireworks": "fw_" + fake(24),
    "Together": "tgp_v1_" + fake(20) + "-" + fake(22) + "_",
}
PLACES = {
    "by position": ("app/llm.py", 'client = Client("{key}")\n'),
    "in a comment": ("app/llm.py", "# the demo used {key} until it was revoked\n"),
    "in a notebook's JSON": ("demo.ipynb", '{{"source": ["client = OpenAI(base_url=URL, api_key=\\"{key}\\")"]}}\n'),
    "in a shell line": ("run.sh", "python eval.py --model deepseek-chat {key}\n"),
}


@pytest.mark.parametrize("vendor", KEYS)
@pytest.mark.parametrize("place", PLACES)
def test_a_model_providers_key_is_found_anywhere(vendor, place):
    path, text = PLACES[place]
    found = find_secrets("import os\n\n" + text.format(key=KEYS[vendor]), path)
    assert found and found[0].line == 3, (vendor, place, found)


LOOK_ALIKES = [
    "task-" + "0123456789abcdef" * 2,  # sk- inside a word
    "sk-" + fake(31, HEX), "sk-" + fake(64, HEX), "sk-or-v1-" + fake(63, HEX),  # not the lengths the keys have
    "fw_" + "firmware_update_handler",  # an identifier, no digit
    "fw_" + "0123456789" * 3,  # no letter
    "pcsk_xxxxx_" + "x" * 60,  # a placeholder
    "csk-" + fake(20, LOWER),  # too short
    "tgp_v1_" + "YOUR_TOGETHER_API_KEY_GOES_HERE_PLEASE_NOW",  # words in capitals
]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_look_alikes_of_the_prefixes_are_not_keys(text):
    assert [f for f in find_secrets(f'NAME = "{text}"\n', "app/x.py") if f.rule == "model-provider-key"] == []
