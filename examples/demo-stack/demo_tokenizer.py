"""A byte-level stand-in for the Hugging Face tokenizer transformers' AutoTokenizer gives the real
BaseEnv (`self.tokenizer`), with a ChatML chat template. Not part of atroposlib: the miniature loads
it where the real library calls AutoTokenizer.from_pretrained, and the demo trainer uses it too.

Token ids are the UTF-8 bytes of the text, so the trainer can decode exactly what the
environment scored. As in transformers, apply_chat_template returns token ids unless
tokenize=False, and the end-of-turn marker is `eos_token`.
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional, Sequence

__all__ = ["ByteTokenizer", "split_chatml", "IM_START", "IM_END"]

IM_START = "<|im_start|>"
IM_END = "<|im_end|>"

_BLOCK_RE = re.compile(re.escape(IM_START) + r"(\w+)\n(.*?)" + re.escape(IM_END) + r"\n?", re.S)


class ByteTokenizer:
    """encode/decode/apply_chat_template over UTF-8 bytes."""

    eos_token = IM_END

    def __init__(self, name_or_path: str = "demo-byte-tokenizer"):
        self.name_or_path = name_or_path

    @classmethod
    def from_pretrained(cls, name_or_path: str) -> "ByteTokenizer":
        return cls(name_or_path)

    def encode(self, text: str, add_special_tokens: bool = False) -> List[int]:
        return list(text.encode("utf-8"))

    def decode(self, tokens: Sequence[int], skip_special_tokens: bool = False) -> str:
        text = bytes(t for t in tokens if 0 <= t < 256).decode("utf-8", errors="replace")
        if skip_special_tokens:
            text = text.replace(IM_START, "").replace(IM_END, "")
        return text

    def apply_chat_template(
        self,
        messages: Sequence[Dict[str, str]],
        tokenize: bool = True,
        add_generation_prompt: bool = False,
    ):
        text = "".join(f"{IM_START}{m['role']}\n{m.get('content') or ''}{IM_END}\n" for m in messages)
        if add_generation_prompt:
            text += f"{IM_START}assistant\n"
        return self.encode(text) if tokenize else text


def split_chatml(text: str) -> List[Dict[str, str]]:
    """Recover the messages of a ChatML transcript (an unterminated last block is included)."""
    messages = [{"role": m.group(1), "content": m.group(2)} for m in _BLOCK_RE.finditer(text)]
    tail_start = text.rfind(IM_START)
    if tail_start != -1 and IM_END not in text[tail_start:]:
        role, _, content = text[tail_start + len(IM_START):].partition("\n")
        messages.append({"role": role, "content": content})
    return messages


def last_user_message(messages: Sequence[Dict[str, str]]) -> Optional[str]:
    for m in reversed(messages):
        if m.get("role") == "user":
            content = m.get("content")
            return content if isinstance(content, str) else None
    return None
