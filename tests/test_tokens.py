"""Token counting: tiktoken's known ids, offline loading, the hash check, the rough rule."""
import gzip
import socket
from importlib import resources

import pytest
import tiktoken.load

from ctxlib import tokens
from ctxlib.course.examples import SENTENCE_EN, SENTENCE_HI


@pytest.mark.parametrize("name, ids", [("cl100k_base", [15339, 1917]), ("o200k_base", [24912, 2375])])
def test_known_ids(name, ids):
    assert tokens.get_encoding(name).encode("hello world") == ids
    assert tokens.count_tokens("hello world", name) == 2


def test_counts_with_networking_disabled(monkeypatch):
    def refuse(*args, **kwargs):
        raise OSError("network disabled by the test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    tokens.get_encoding.cache_clear()
    try:
        assert tokens.count_tokens("hello world", "o200k_base") == 2
        assert tokens.count_tokens("hello world", "cl100k_base") == 2
    finally:
        tokens.get_encoding.cache_clear()


def test_loaded_once_per_process():
    assert tokens.get_encoding("o200k_base") is tokens.get_encoding("o200k_base")


def test_unknown_encoding_is_named():
    with pytest.raises(ValueError, match="unknown encoding 'p50k_base'"):
        tokens.count_tokens("x", "p50k_base")
    with pytest.raises(ValueError, match="unknown encoding 'gpt5'"):
        tokens.token_counter("gpt5")


def test_wrong_hash_is_refused():
    good = gzip.decompress(resources.files("ctxlib").joinpath("data", "cl100k_base.tiktoken.gz").read_bytes())
    tampered = good.replace(b"IQ== 0", b"IQ== 1", 1)
    with pytest.raises(ValueError, match="'cl100k_base' failed its sha256 check"):
        tokens.parse_ranks("cl100k_base", tampered, tokens.ENCODINGS["cl100k_base"]["sha256"])


def test_ranks_parse_like_tiktoken(tmp_path, monkeypatch):
    """Our parser gives exactly what tiktoken's own loader gives for the same file."""
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "")  # no cache writes
    data = gzip.decompress(resources.files("ctxlib").joinpath("data", "cl100k_base.tiktoken.gz").read_bytes())
    path = tmp_path / "cl100k_base.tiktoken"
    path.write_bytes(data)
    expected = tiktoken.load.load_tiktoken_bpe(str(path), expected_hash=tokens.ENCODINGS["cl100k_base"]["sha256"])
    assert tokens.parse_ranks("cl100k_base", data, tokens.ENCODINGS["cl100k_base"]["sha256"]) == expected


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_pattern_and_specials_match_tiktoken(name, monkeypatch):
    """Our copy of the pattern and special tokens equals tiktoken_ext's, without downloading."""
    from tiktoken_ext import openai_public

    monkeypatch.setattr(openai_public, "load_tiktoken_bpe", lambda *a, **k: {})
    theirs = getattr(openai_public, name)()
    assert theirs["pat_str"] == tokens.ENCODINGS[name]["pat_str"]
    assert theirs["special_tokens"] == tokens.ENCODINGS[name]["special_tokens"]


def test_rough_rule():
    assert tokens.estimate_tokens("") == 1
    assert tokens.estimate_tokens("abc") == 1
    assert tokens.estimate_tokens("abcdefgh") == 2
    assert tokens.estimate_tokens("x" * 310) == 77
    with pytest.raises(TypeError, match="must be a string"):
        tokens.estimate_tokens(b"bytes")


def test_rough_rule_on_english_and_hindi():
    """The lesson's table: close for English, far off for Hindi in cl100k_base."""
    assert (len(SENTENCE_EN), tokens.estimate_tokens(SENTENCE_EN)) == (85, 21)
    assert tokens.count_tokens(SENTENCE_EN, "o200k_base") == 19
    assert tokens.count_tokens(SENTENCE_EN, "cl100k_base") == 19
    assert (len(SENTENCE_HI), tokens.estimate_tokens(SENTENCE_HI)) == (97, 24)
    assert tokens.count_tokens(SENTENCE_HI, "o200k_base") == 27
    assert tokens.count_tokens(SENTENCE_HI, "cl100k_base") == 80


def test_special_token_text_counts_as_text():
    assert tokens.count_tokens("<|endoftext|>", "cl100k_base") > 1


def test_token_counter():
    assert tokens.token_counter("rough")("abcdefgh") == 2
    assert tokens.token_counter("cl100k_base")("hello world") == 2
