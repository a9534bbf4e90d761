"""A compiled .gitignore whose patterns count the names they are asked about (for tests of how many a name tries)."""


class CountingRegex:
    """A pattern's compiled regex that counts the names it is asked about (``CountingRegex.asked``)."""

    asked = 0

    def __init__(self, regex):
        self.regex, self.pattern = regex, regex.pattern

    def search(self, name):
        CountingRegex.asked += 1
        return self.regex.search(name)


def count_searches(spec) -> None:
    """Make every pattern of ``spec`` (an ``ignore.compile_patterns`` result) count its searches, from zero."""
    for pattern in spec.patterns:
        if pattern.regex is not None:
            pattern.regex = CountingRegex(pattern.regex)
    CountingRegex.asked = 0
