"""Each game's rules page as the web page serves it: ``GET /rules/{game}``.

The Markdown is the file the game's package ships (``plunder.envs.rules_text``), so an
installed package serves it without the repository. It is rendered to HTML with
Python-Markdown (the web extra); links keep working: a link to another game's rules page
goes to that page on this server, an anchor to its heading, a web address stays; a link
to a page of the project's documentation site (not served here) keeps its words and
loses the link.
"""

from __future__ import annotations

import html
import re

from plunder.envs import env_ids, resolve_env_id, spec
from plunder.envs.core.guide import rules_text

#: a Markdown link ``[words](target)`` (images are not used by the rules pages)
_LINK = re.compile(r"(?<!!)\[([^\]\n]+)\]\(([^)\s]+)\)")
#: a rules page's name in a link target: ``../rules/shipshape.md``, ``shipshape.md#x``
_RULES_TARGET = re.compile(r"^(?:\.\./rules/|\./)?(\w+)\.md(#[\w-]*)?$")

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} — rules</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 52rem; margin: 1rem auto;
       padding: 0 1rem; line-height: 1.5; color: #1d2330; }}
table {{ border-collapse: collapse; margin: 0.5rem 0; }}
th, td {{ border: 1px solid #c8ced8; padding: 0.2rem 0.5rem; vertical-align: top; }}
code {{ background: #eef1f5; padding: 0 0.2rem; border-radius: 3px; }}
nav {{ margin-bottom: 1rem; }}
</style></head>
<body><nav><a href="/">&larr; back to the games</a> · rules of: {others}</nav>
<main>{body}</main></body></html>
"""


def rules_url(name: str) -> str:
    """The address of a game's rules page on the server (its short name)."""
    return f"/rules/{name}"


def _link(match: re.Match, names: set[str]) -> str:
    """One Markdown link as the served page has it."""
    words, target = match.group(1), match.group(2)
    if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
        return match.group(0)                       # a web address or an anchor
    found = _RULES_TARGET.match(target)
    if found and found.group(1) in names:
        return f"[{words}]({rules_url(found.group(1))}{found.group(2) or ''})"
    return words                                    # a page of the docs site


def served_markdown(text: str) -> str:
    """The rules Markdown with its links pointed where this server has them."""
    names = {spec(e).name for e in env_ids()}
    return _LINK.sub(lambda m: _link(m, names), text)


def to_html(text: str) -> str:
    """Markdown as HTML (Python-Markdown; without it, the text as it is, preformatted)."""
    try:
        import markdown
    except ImportError:
        return f"<pre>{html.escape(text)}</pre>"
    return markdown.markdown(text, extensions=["tables", "toc", "fenced_code"],
                             output_format="html")


def rules_page(game: str) -> str:
    """The HTML page of a game's rules (an env id or a short name); UnknownEnvError for
    an unknown game, InvalidArgumentError for one without a rules page."""
    env_id = resolve_env_id(game)
    others = " · ".join(f'<a href="{rules_url(spec(e).name)}">{html.escape(spec(e).title)}</a>'
                        for e in env_ids() if spec(e).rules is not None)
    body = to_html(served_markdown(rules_text(env_id)))
    return PAGE.format(title=html.escape(spec(env_id).title), body=body, others=others)
