"""Text formatting as the Bot API server does it: parse_mode parsing into plain text + entities,
UTF-16 offsets, trimming, and the entities Telegram adds to user messages (commands, mentions).

The point is to fail where Telegram fails: an unescaped ``<`` in a player's name under HTML, or a
``.`` under MarkdownV2, is "Bad Request: can't parse entities: ..." in production, so it is here.
Error texts follow TDLib's wording (``Unsupported start tag "x" at byte offset N``,
``Character '.' is reserved and must be escaped with the preceding '\\'``); offsets are UTF-8 bytes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

Entity = dict[str, object]

MAX_TEXT_LENGTH = 4096
MAX_CAPTION_LENGTH = 1024


class EntityParseError(ValueError):
    """The text does not parse under its parse_mode; str(self) follows "can't parse entities: "."""


def u16len(text: str) -> int:
    """Length in UTF-16 code units, the unit of every Bot API offset and length."""
    return len(text.encode("utf-16-le")) // 2


def _byte_offset(src: str, index: int) -> int:
    return len(src[:index].encode("utf-8"))


# --------------------------------------------------------------------------------------- HTML

_HTML_SIMPLE = {
    "b": "bold", "strong": "bold", "i": "italic", "em": "italic", "u": "underline",
    "ins": "underline", "s": "strikethrough", "strike": "strikethrough", "del": "strikethrough",
    "tg-spoiler": "spoiler", "code": "code", "pre": "pre", "blockquote": "blockquote",
}
_HTML_SPECIAL = {"a", "span", "tg-emoji", "tg-time"}
_HTML_NAMED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_HTML_ENTITY = re.compile(r"&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z]{2,8});")
_TAG_NAME = re.compile(r"[A-Za-z0-9-]*")
_ATTR = re.compile(r"""\s*([A-Za-z0-9_-]+)\s*(?:=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?""")


@dataclass
class _Open:
    tag: str
    start: int  # UTF-16 offset in the output text
    entity: Entity


def parse_html(src: str) -> tuple[str, list[Entity]]:
    """Telegram's HTML style: supported tags only, every tag closed, ``<`` escaped as ``&lt;``."""
    out: list[str] = []
    pos = 0  # UTF-16 length of the output so far
    stack: list[_Open] = []
    entities: list[Entity] = []
    i = 0
    while i < len(src):
        ch = src[i]
        if ch == "&":
            piece, i = _html_entity(src, i)
        elif ch != "<":
            piece, i = ch, i + 1
        elif src.startswith("</", i):
            i = _html_end_tag(src, i, stack, entities, pos)
            continue
        else:
            i = _html_start_tag(src, i, stack, pos)
            continue
        out.append(piece)
        pos += u16len(piece)
    if stack:
        raise EntityParseError(f'Can\'t find end tag corresponding to start tag "{stack[-1].tag}"')
    return "".join(out), sort_entities(entities)


def _html_entity(src: str, i: int) -> tuple[str, int]:
    match = _HTML_ENTITY.match(src, i)
    if not match:
        return "&", i + 1
    name = match.group(1)
    if name.startswith("#"):
        code = int(name[2:], 16) if name[1:2] in "xX" else int(name[1:])
        if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF:
            return chr(code), match.end()
        return "&", i + 1
    if name in _HTML_NAMED:
        return _HTML_NAMED[name], match.end()
    return "&", i + 1  # an unknown named entity stays literal text


def _html_start_tag(src: str, i: int, stack: list[_Open], pos: int) -> int:
    begin = i
    name_match = _TAG_NAME.match(src, i + 1)
    assert name_match is not None
    tag = name_match.group(0).lower()
    if tag not in _HTML_SIMPLE and tag not in _HTML_SPECIAL:
        raise EntityParseError(
            f'Unsupported start tag "{tag}" at byte offset {_byte_offset(src, begin)}'
        )
    j = name_match.end()
    attrs: dict[str, str] = {}
    while True:
        if j >= len(src):
            raise EntityParseError(f"Unclosed start tag at byte offset {_byte_offset(src, begin)}")
        if src[j] == ">":
            j += 1
            break
        if src[j].isspace():
            j += 1
            continue
        attr = _ATTR.match(src, j)
        if not attr or attr.end() == j:
            raise EntityParseError(
                f'Expected equal sign in declaration of an attribute of the tag "{tag}" '
                f"at byte offset {_byte_offset(src, begin)}"
            )
        value = next((g for g in attr.groups()[1:] if g is not None), "")
        attrs[attr.group(1).lower()] = _unescape_attr(value)
        j = attr.end()
    stack.append(_Open(tag, pos, _html_entity_for(tag, attrs, src, begin)))
    return j


def _unescape_attr(value: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(value):
        piece, i = _html_entity(value, i) if value[i] == "&" else (value[i], i + 1)
        out.append(piece)
    return "".join(out)


def _html_entity_for(tag: str, attrs: dict[str, str], src: str, begin: int) -> Entity:
    if tag in _HTML_SIMPLE:
        kind = _HTML_SIMPLE[tag]
        if tag == "blockquote" and "expandable" in attrs:
            kind = "expandable_blockquote"
        entity: Entity = {"type": kind}
        if tag == "code" and attrs.get("class", "").startswith("language-"):
            entity["language"] = attrs["class"][len("language-"):]
        return entity
    if tag == "a":
        return {"type": "text_link", "url": attrs.get("href", "")}
    if tag == "span":
        if attrs.get("class") != "tg-spoiler":
            raise EntityParseError('Tag "span" must have class "tg-spoiler" at byte offset '
                                   f"{_byte_offset(src, begin)}")
        return {"type": "spoiler"}
    if tag == "tg-emoji":
        if "emoji-id" not in attrs:
            raise EntityParseError('Tag "tg-emoji" must have attribute "emoji-id" at byte offset '
                                   f"{_byte_offset(src, begin)}")
        return {"type": "custom_emoji", "custom_emoji_id": attrs["emoji-id"]}
    # tg-time
    return {"type": "date_time", "unix_time": int(attrs.get("unix", "0") or 0)}


def _html_end_tag(src: str, i: int, stack: list[_Open], entities: list[Entity], pos: int) -> int:
    begin = i
    close = src.find(">", i)
    if close < 0:
        raise EntityParseError(f"Unclosed end tag at byte offset {_byte_offset(src, begin)}")
    name = src[i + 2:close].strip().lower()
    if not stack:
        raise EntityParseError(f"Unexpected end tag at byte offset {_byte_offset(src, begin)}")
    opened = stack.pop()
    if name and name != opened.tag:
        raise EntityParseError(
            f"Unmatched end tag at byte offset {_byte_offset(src, begin)}, "
            f'expected "</{opened.tag}>", found "</{name}>"'
        )
    length = pos - opened.start
    if length > 0:
        entity = dict(opened.entity)
        language = entity.pop("language", None)
        if entity["type"] == "code" and stack and stack[-1].entity["type"] == "pre" and language:
            stack[-1].entity["language"] = language
        else:
            entity.update(offset=opened.start, length=length)
            entities.append(entity)
    return close + 1


# --------------------------------------------------------------------------------- MarkdownV2

_MDV2_RESERVED = "_*[]()~`>#+-=|{}.!"
_MDV2_NAMES = {
    "bold": "Bold", "italic": "Italic", "underline": "Underline", "strikethrough": "Strikethrough",
    "spoiler": "Spoiler", "text_link": "TextUrl", "code": "Code", "pre": "Pre",
    "custom_emoji": "CustomEmoji",
}


def parse_markdown_v2(src: str) -> tuple[str, list[Entity]]:
    """MarkdownV2: every reserved character outside markup must be escaped with a backslash."""
    out: list[str] = []
    pos = 0
    stack: list[tuple[str, int, int]] = []  # (type, utf16 start, byte offset of the opener)
    entities: list[Entity] = []
    i = 0
    at_line_start = True
    quote_start: int | None = None
    n = len(src)
    while i < n:
        ch = src[i]
        in_code = bool(stack) and stack[-1][0] in ("code", "pre")
        if ch == "\\" and i + 1 < n and 0 < ord(src[i + 1]) < 127:
            out.append(src[i + 1])
            pos += 1
            i += 2
            at_line_start = False
            continue
        if at_line_start and ch == ">" and not in_code:
            if quote_start is None:
                quote_start = pos
            i += 1
            at_line_start = False
            continue
        if ch == "\n":
            at_line_start = True
            if quote_start is not None and not src.startswith(">", i + 1):
                if pos > quote_start:
                    entities.append({"type": "blockquote", "offset": quote_start,
                                     "length": pos - quote_start})
                quote_start = None
        else:
            at_line_start = False
        if ch not in _MDV2_RESERVED or (in_code and ch != "`"):
            out.append(ch)
            pos += u16len(ch)
            i += 1
            continue
        closing = _mdv2_closes(src, i, stack)
        if closing:
            kind, start, _ = stack.pop()
            i += closing
            entity: Entity = {"type": kind, "offset": start, "length": pos - start}
            if kind == "text_link":
                url, i = _mdv2_link_url(src, i)
                if not url:
                    continue
                entity["url"] = url
            if entity["length"]:
                entities.append(entity)
            continue
        opener = _mdv2_opens(src, i)
        if opener is None:
            raise EntityParseError(
                f"Character '{ch}' is reserved and must be escaped with the preceding '\\'"
            )
        kind, width = opener
        stack.append((kind, pos, _byte_offset(src, i)))
        i += width
        if kind == "pre":
            newline = src.find("\n", i)
            closing_at = src.find("```", i)
            if 0 <= newline < closing_at and re.fullmatch(r"[A-Za-z0-9+#_-]*", src[i:newline]):
                i = newline + 1  # the first line names the language
    if quote_start is not None and pos > quote_start:
        entities.append({"type": "blockquote", "offset": quote_start, "length": pos - quote_start})
    if stack:
        kind, _, byte = stack[-1]
        raise EntityParseError(f"Can't find end of {_MDV2_NAMES.get(kind, kind)} entity "
                               f"at byte offset {byte}")
    return "".join(out), sort_entities(entities)


def _mdv2_closes(src: str, i: int, stack: list[tuple[str, int, int]]) -> int:
    """Width of the closing marker at ``i`` for the innermost open entity, 0 if none."""
    if not stack:
        return 0
    kind = stack[-1][0]
    markers = {"bold": "*", "italic": "_", "underline": "__", "strikethrough": "~",
               "spoiler": "||", "text_link": "]", "code": "`", "pre": "```",
               "custom_emoji": "]"}
    marker = markers[kind]
    if kind == "italic" and src.startswith("__", i) and any(k == "underline" for k, _, _ in stack):
        return 0
    return len(marker) if src.startswith(marker, i) else 0


def _mdv2_opens(src: str, i: int) -> tuple[str, int] | None:
    if src.startswith("```", i):
        return "pre", 3
    if src.startswith("__", i):
        return "underline", 2
    if src.startswith("||", i):
        return "spoiler", 2
    if src.startswith("![", i):
        return "custom_emoji", 2
    single = {"*": "bold", "_": "italic", "~": "strikethrough", "[": "text_link", "`": "code"}
    kind = single.get(src[i])
    return (kind, 1) if kind else None


def _mdv2_link_url(src: str, i: int) -> tuple[str, int]:
    if not src.startswith("(", i):
        return "", i
    url: list[str] = []
    j = i + 1
    while j < len(src) and src[j] != ")":
        if src[j] == "\\" and j + 1 < len(src):
            j += 1
        url.append(src[j])
        j += 1
    if j >= len(src):
        raise EntityParseError(f"Can't find end of a URL at byte offset {_byte_offset(src, i)}")
    return "".join(url), j + 1


# ------------------------------------------------------------------------- legacy Markdown

def parse_markdown(src: str) -> tuple[str, list[Entity]]:
    """Legacy Markdown: ``*bold*``, ``_italic_``, ```code```, ``[text](url)``; no nesting."""
    out: list[str] = []
    pos = 0
    entities: list[Entity] = []
    i = 0
    markers = {"*": "bold", "_": "italic", "`": "code", "[": "text_link"}
    while i < len(src):
        ch = src[i]
        if ch == "\\" and i + 1 < len(src) and src[i + 1] in "_*`[":
            out.append(src[i + 1])
            pos += 1
            i += 2
            continue
        if ch not in markers:
            out.append(ch)
            pos += u16len(ch)
            i += 1
            continue
        begin = i
        if src.startswith("```", i):
            end = src.find("```", i + 3)
            kind, inner_start, after = "pre", i + 3, end + 3
        else:
            closer = "]" if ch == "[" else ch
            end = src.find(closer, i + 1)
            kind, inner_start, after = markers[ch], i + 1, end + 1
        if end < 0:
            raise EntityParseError("Can't find end of the entity starting at byte offset "
                                   f"{_byte_offset(src, begin)}")
        inner = src[inner_start:end]
        entity: Entity = {"type": kind, "offset": pos, "length": u16len(inner)}
        if kind == "text_link":
            url, after = _mdv2_link_url(src, after)
            if not url:
                entity = {}
            else:
                entity["url"] = url
        out.append(inner)
        pos += u16len(inner)
        if entity and entity["length"]:
            entities.append(entity)
        i = after
    return "".join(out), sort_entities(entities)


# --------------------------------------------------------------------------------- utilities

def sort_entities(entities: list[Entity]) -> list[Entity]:
    return sorted(entities, key=lambda e: (int(e["offset"]), -int(e["length"])))  # type: ignore[call-overload]


def parse_formatted(text: str, parse_mode: str | None, entities: list[Entity] | None
                    ) -> tuple[str, list[Entity]]:
    """Apply ``parse_mode`` (or take explicit ``entities``) and trim surrounding whitespace."""
    mode = (parse_mode or "").lower()
    if mode == "html":
        plain, found = parse_html(text)
    elif mode == "markdownv2":
        plain, found = parse_markdown_v2(text)
    elif mode == "markdown":
        plain, found = parse_markdown(text)
    elif mode:
        raise EntityParseError(f"Unsupported parse_mode {parse_mode!r}")
    else:
        plain, found = text, list(entities or [])
    return trim(plain, found)


def trim(text: str, entities: list[Entity]) -> tuple[str, list[Entity]]:
    """Telegram strips leading and trailing whitespace; entities are clipped to what remains."""
    stripped = text.strip()
    if stripped == text:
        return text, entities
    lead = u16len(text[: len(text) - len(text.lstrip())])
    size = u16len(stripped)
    kept: list[Entity] = []
    for entity in entities:
        start = max(int(entity["offset"]) - lead, 0)  # type: ignore[call-overload]
        end = min(int(entity["offset"]) + int(entity["length"]) - lead, size)  # type: ignore[call-overload]
        if end > start:
            kept.append({**entity, "offset": start, "length": end - start})
    return stripped, kept


_COMMAND = re.compile(r"(?<![\w/])/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{3,32})?(?![\w@/])")
_MENTION = re.compile(r"(?<![\w@])@[A-Za-z][A-Za-z0-9_]{3,31}(?!\w)")
_URL = re.compile(r"(?<!\w)https?://[^\s<>\"]+")
_HASHTAG = re.compile(r"(?<![\w#])#\w*[^\W\d_]\w*")


def user_entities(text: str) -> list[Entity]:
    """Entities Telegram attaches to a text a user typed: bot_command, mention, url, hashtag."""
    found: list[Entity] = []
    for pattern, kind in ((_COMMAND, "bot_command"), (_MENTION, "mention"), (_URL, "url"),
                          (_HASHTAG, "hashtag")):
        for match in pattern.finditer(text):
            found.append({"type": kind, "offset": u16len(text[: match.start()]),
                          "length": u16len(match.group(0))})
    return sort_entities(found)
