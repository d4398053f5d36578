"""Words to know: what AI, a model, a token and data mean, in a student's words.

One place for the words every lesson relies on, so the first lesson, the card gallery and the
teacher's guide say the same thing. Each meaning reads at grade 7 or below (checked in
``tests/test_readability.py``).
"""

from __future__ import annotations

import html

__all__ = ["GLOSSARY", "glossary_html"]

#: word -> its meaning for students aged 11-14, in the order a lesson introduces them.
GLOSSARY: dict[str, str] = {
    "AI": ("AI stands for artificial intelligence. An AI is a computer program that does a job we "
           "once thought only people could do. It might spot faces or answer questions."),
    "data": ("Data is information a computer can use: numbers, words, pictures or sounds. "
             "An AI learns from data."),
    "model": ("A model is what an AI makes when it learns from data. It is a big set of numbers "
              "that turns an input, like a photo, into an output, like the label \"cat\"."),
    "token": ("In real AI, a token is a small piece of text, like a word or part of a word. "
              "A chatbot takes in your whole message at once. Then it writes its answer one "
              "token at a time. In this game, Tokens are the points you score."),
}


def glossary_html(words: tuple[str, ...] | None = None) -> str:
    """The words (all of :data:`GLOSSARY` by default) as a short HTML list, escaped.

    Args:
        words: which words to show, in that order; None shows every word.

    Returns:
        str: an HTML ``<div class="tokens-glossary">`` with a heading and one line per word.

    Raises:
        KeyError: a word that is not in :data:`GLOSSARY`.
    """
    chosen = list(GLOSSARY) if words is None else list(words)
    items = "".join(
        f'<li style="margin:2px 0"><strong>{html.escape(w)}</strong>: {html.escape(GLOSSARY[w])}</li>'
        for w in chosen
    )
    return ('<div class="tokens-glossary" style="font-size:15px;line-height:1.45;color:#1a1a1a">'
            '<strong>Words to know</strong>'
            f'<ul style="margin:4px 0 8px;padding-left:20px">{items}</ul></div>')
