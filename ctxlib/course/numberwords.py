"""Numbers written in words, in English or Hindi, as a learner types a quick check's answer.

``words_number("one hundred and four")``, ``words_number("एक सौ चार")``, ``words_number("बारह हजार")`` and
``words_number("39 thousand")`` give 104, 104, 12,000 and 39,000. The grammar is strict on purpose: a
hedge ("104 or 108", "चार या पाँच"), two numbers side by side ("one four") or a scale out of order
("one thousand one lakh") is no number, so it can never be graded as either of its numbers.
Hindi's words for a half and a quarter are numbers too ("डेढ़ लाख", "ढाई सौ", "साढ़े तीन हज़ार", "सवा सौ", "पौने दो
सौ"), and so is a scale alone ("हज़ार"); common spellings are each listed ("अड़तालिस", "चौसठ", "अठासी", "सो" for सौ).
``ordinal_number`` reads an ordinal ("third", "तीसरा", "तीसरे", "सातवाँ" or "सातवा", "नवाँ", "छठवाँ") for a question
that asks for a turn.
Words are compared after ``fold_word``: lower case, NFC, without the nukta (हज़ार and हजार are one word) and
with the chandrabindu as the anusvara (पाँच and पांच).
"""
from __future__ import annotations

import re
import unicodedata
from decimal import Decimal

# Hindi's words for 1 to 99, each its own word; the usual spellings of one number are separated by "/".
_HINDI_1_99 = (
    "एक दो तीन चार पाँच छह/छः/छे सात आठ नौ दस "
    "ग्यारह बारह तेरह चौदह पंद्रह/पन्द्रह सोलह सत्रह अठारह/अट्ठारह उन्नीस बीस "
    "इक्कीस/इकीस बाईस/बाइस तेईस/तेइस चौबीस पच्चीस/पचीस छब्बीस सत्ताईस/सत्ताइस/सताइस अट्ठाईस/अट्ठाइस/अठाईस उनतीस/उन्तीस तीस "
    "इकतीस/इकत्तीस बत्तीस/बतीस तैंतीस/तेंतीस चौंतीस/चौतीस पैंतीस छत्तीस/छतीस सैंतीस अड़तीस उनतालीस/उन्तालीस/उनचालीस चालीस "
    "इकतालीस/इकतालिस बयालीस/बयालिस तैंतालीस/तैतालीस/तैंतालिस/तेंतालीस चवालीस/चौवालीस/चौवालिस/चव्वालीस पैंतालीस/पैंतालिस छियालीस/छयालीस/छयालिस/छियालिस सैंतालीस/सैंतालिस अड़तालीस/अड़तालिस उनचास/उन्चास पचास "
    "इक्यावन बावन तिरपन/तिरेपन चौवन पचपन छप्पन सत्तावन/सतावन अट्ठावन/अठावन उनसठ साठ "
    "इकसठ बासठ तिरसठ/तिरेसठ चौंसठ/चौसठ पैंसठ/पैसठ छियासठ सड़सठ/सरसठ अड़सठ/अरसठ उनहत्तर/उनहतर सत्तर "
    "इकहत्तर/इकहतर बहत्तर/बहतर तिहत्तर/तिहतर चौहत्तर/चौहतर पचहत्तर/पचहतर छिहत्तर/छिहतर सतहत्तर/सतहतर अठहत्तर/अठहतर उन्यासी/उनासी/उन्नासी अस्सी "
    "इक्यासी बयासी तिरासी चौरासी पचासी छियासी सत्तासी/सतासी अट्ठासी/अठासी नवासी नब्बे "
    "इक्यानबे/इक्यानवे बानबे/बानवे तिरानबे/तिरानवे चौरानबे/चौरानवे पचानबे/पचानवे छियानबे/छियानवे "
    "सत्तानबे/सत्तानवे/सतानवे अट्ठानबे/अट्ठानवे/अठानवे/अठानबे निन्यानबे/निन्यानवे/निन्नानवे").split()
_ENGLISH_0_19 = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
                 "sixteen seventeen eighteen nineteen").split()
_ENGLISH_TENS = {word: 10 * i for i, word in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), 2)}
_HUNDRED = {"hundred", "सौ", "सो"}  # सो: सौ typed without its second matra
_SCALES = {"thousand": 10**3, "हज़ार": 10**3, "lakh": 10**5, "lakhs": 10**5, "lac": 10**5, "लाख": 10**5,
           "million": 10**6, "crore": 10**7, "crores": 10**7, "करोड़": 10**7}
_AND = {"and", "और"}
_POINT = {"point", "दशमलव", "पॉइंट", "पॉईंट", "प्वाइंट"}  # "दो पॉइंट दो", as it is said aloud
_ENGLISH_ORDINALS = ("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
                     "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth").split()
# Hindi's ordinals: the first four and the sixth have words of their own; the others add वाँ to the number (सातवाँ).
_HINDI_ORDINALS = {"पहला": 1, "दूसरा": 2, "तीसरा": 3, "चौथा": 4, "छठा": 6}
# Before वाँ: a number's word, or the stems नौवाँ and छठा also take (नवाँ, नवें; छठवाँ, छठवें).
_ORDINAL_STEMS = {"न": 9, "छठ": 6}
# Hindi's words for a half and a quarter: डेढ़ 1.5, ढाई 2.5 (alone or before सौ or a scale: डेढ़ लाख, ढाई सौ);
# before a number, साढ़े adds a half, सवा a quarter, पौने takes one away (साढ़े तीन हज़ार, पौने दो सौ);
# सवा also stands alone before सौ or a scale (सवा सौ, सवा लाख).
_HALVES = {"डेढ़": 1.5, "ढाई": 2.5}
_QUARTERS = {"साढ़े": 0.5, "सवा": 0.25, "पौने": -0.25}


def fold_word(text: str) -> str:
    """``text`` as words are compared: NFC, lower case, no nukta (U+093C), the chandrabindu as the anusvara."""
    return unicodedata.normalize("NFC", text).lower().replace("\u093c", "").replace("\u0901", "\u0902")


def _table() -> dict[str, int]:
    """Every word for 0 to 99, folded; ``ValueError`` if one spelling would stand for two numbers."""
    words = [(word, i) for i, word in enumerate(_ENGLISH_0_19)] + list(_ENGLISH_TENS.items()) + [("शून्य", 0)]
    words += [(spelling, i) for i, spellings in enumerate(_HINDI_1_99, 1) for spelling in spellings.split("/")]
    table = {}
    for word, value in words:
        if table.setdefault(fold_word(word), value) != value:
            raise ValueError(f"{word!r} is written for both {table[fold_word(word)]} and {value}")
    return table


_SMALL = _table()  # every word for 0 to 99
_TENS = {fold_word(w) for w in _ENGLISH_TENS}  # the English tens, which a unit may follow: "thirty nine"
_SCALES = {fold_word(w): v for w, v in _SCALES.items()}
_HUNDRED, _AND, _POINT = ({fold_word(w) for w in words} for words in (_HUNDRED, _AND, _POINT))
_HALVES, _QUARTERS = ({fold_word(w): v for w, v in words.items()} for words in (_HALVES, _QUARTERS))
_NUMERAL = re.compile(r"\d+(?:\.\d+)?")  # "39" in "39 thousand", "1.6" in "1.6 lakh", Devanagari digits too


def _small(words: list[str], i: int) -> tuple[float, int] | None:
    """The number 0 to 99 (or a numeral) at ``words[i]``, and where the words after it start."""
    if i >= len(words):
        return None
    word = words[i]
    if _NUMERAL.fullmatch(word):
        return float(word), i + 1
    if word in _HALVES:
        return _HALVES[word], i + 1  # डेढ़, ढाई
    if word in _QUARTERS and i + 1 < len(words):
        after = words[i + 1]
        if word == fold_word("सवा") and (after in _HUNDRED or after in _SCALES):
            return 1 + _QUARTERS[word], i + 1  # सवा सौ, सवा लाख
        if _SMALL.get(after, 0) >= 1 or (_NUMERAL.fullmatch(after) and float(after).is_integer() and float(after) >= 1):
            return float(_SMALL[after] if after in _SMALL else after) + _QUARTERS[word], i + 2  # साढ़े तीन, पौने दो
        return None
    if word not in _SMALL:
        return None
    value = _SMALL[word]
    if word in _TENS and i + 1 < len(words) and 0 < _SMALL.get(words[i + 1], 10) < 10 and words[i + 1].isascii():
        return value + _SMALL[words[i + 1]], i + 2  # "thirty nine"; Hindi has a word of its own for each
    return value, i + 1


def _section(words: list[str], i: int) -> tuple[float, int] | None:
    """A number below a thousand-ish at ``words[i]``: ``[N hundred] [and] [0-99]``, ``a hundred``, or a numeral.

    Returns the number and where the words after it start, or ``None`` if there is none.
    """
    if i >= len(words):
        return None
    if words[i] in ("a", "an") and i + 1 < len(words) and words[i + 1] in _SCALES:
        return 1.0, i + 1  # "a thousand"
    if i == 0 and words[i] in _SCALES:
        return 1.0, i  # "हज़ार", "लाख", "thousand" alone: one of it
    if words[i] in ("a", "an") and i + 1 < len(words) and words[i + 1] in _HUNDRED:
        value, i = 1.0, i + 1  # "a hundred four"
    elif words[i] in _HUNDRED:
        value = 1.0  # "hundred and four", "सौ"
    else:
        first = _small(words, i)
        if first is None:
            return None
        value, i = first
        if i >= len(words) or words[i] not in _HUNDRED:
            return value, i
    value, i = value * 100, i + 1  # past the word for hundred
    after_and = i + 1 if i < len(words) and words[i] in _AND else i
    rest = _small(words, after_and)
    if rest is not None and rest[0] < 100 and rest[0] == int(rest[0]):
        return value + rest[0], rest[1]
    return value, i  # a dangling "and" is left, so the whole is no number


def words_number(text: str) -> float | None:
    """The number ``text`` spells in words, English or Hindi, or ``None`` if it spells no one number.

    Args:
        text: what the learner typed, e.g. ``"one hundred and four"``, ``"a hundred four"``, ``"twelve thousand"``,
            ``"एक सौ चार"``, ``"बारह हज़ार"``, ``"एक लाख साठ हज़ार"``, ``"39 thousand"``, ``"1.6 lakh"``,
            ``"two point two"``, ``"दो दशमलव दो"``.
    Returns:
        the number as a float; ``None`` for anything else: a word it does not know ("or", "या", "tokens"),
        two numbers side by side, scales out of order or repeated, or a numeral alone (``float`` reads those).
    """
    words = [w for w in re.split(r"[\s\-]+", fold_word(text).replace(",", " ")) if w]
    if not words or all(_NUMERAL.fullmatch(w) for w in words):
        return None
    total, i, last_scale = 0.0, 0, None
    while i < len(words):
        section = _section(words, i)
        if section is None:
            return None
        value, i = section
        if i < len(words) and words[i] in _SCALES:
            scale = _SCALES[words[i]]
            if last_scale is not None and scale >= last_scale:
                return None  # "one thousand two thousand", "one thousand one lakh"
            total, last_scale, i = total + float(Decimal(str(value)) * scale), scale, i + 1  # 1.6 lakh: 160000 exactly
            if i + 1 < len(words) and words[i] in _AND:
                i += 1  # "one thousand and four"
            continue
        if total and not float(value).is_integer():
            return None  # "एक हज़ार डेढ़": a half or a quarter only before सौ or a scale, or alone
        total += value
        if i < len(words) and words[i] in _POINT:
            if not float(value).is_integer():
                return None  # "डेढ़ दशमलव पाँच"
            digits = words[i + 1:]
            if not digits or any(_SMALL.get(d, 10) > 9 for d in digits):
                return None
            total += float("0." + "".join(str(_SMALL[d]) for d in digits))
            i = len(words)
        break
    return total if i == len(words) else None


def ordinal_number(text: str) -> int | None:
    """The number of an ordinal in words: ``"third"`` -> 3, ``"तीसरा"``/``"तीसरे"``/``"तीसरी"`` -> 3, ``"सातवाँ"`` -> 7.

    Returns ``None`` for anything else (``"3rd"`` is read by the caller, as digits).
    """
    word = fold_word(text.strip())
    if word in _ENGLISH_ORDINALS:
        return _ENGLISH_ORDINALS.index(word) + 1
    for stem, value in _HINDI_ORDINALS.items():
        if word in {fold_word(stem), fold_word(stem[:-1] + "े"), fold_word(stem[:-1] + "ी")}:
            return value
    for ending in ("वां", "वें", "वीं", "वा", "वे", "वी"):  # folded: वाँ is वां; often typed without its nasal (सातवा)
        stem = word[:-len(ending)]
        if word.endswith(ending) and (_SMALL.get(stem, 0) > 0 or stem in _ORDINAL_STEMS):
            return _SMALL[stem] if stem in _SMALL else _ORDINAL_STEMS[stem]
    return None
