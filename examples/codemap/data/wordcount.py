"""Count the words of a text file."""
import sys
from collections import Counter

TOP_N = 10


class WordCounter:
    def __init__(self, text):
        self.words = text.split()

    def most_common(self, n=TOP_N):
        return Counter(self.words).most_common(n)


def main(path):
    with open(path) as f:
        counter = WordCounter(f.read())
    for word, count in counter.most_common():
        print(word, count)


if __name__ == "__main__":
    main(sys.argv[1])
