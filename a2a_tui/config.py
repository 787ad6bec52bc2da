"""`.a2a/config.toml`, validated (imported only when the config is read or written)."""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field, field_validator


class Config(BaseModel):
    """`.a2a/config.toml`."""

    model_config = ConfigDict(extra="forbid")

    target_branch: str = Field(min_length=1)
    tmux_session: str = Field(default="", description="tmux session for this repository's panes")
    feedback_limit: int = Field(default=3, ge=0,
                                description="auto feedback stops after N rejections")
    retro_every: str = Field(default="", description="propose a retrospective on the board this"
                             " often (e.g. 7d, 2w); empty: never")

    @field_validator("retro_every")
    @classmethod
    def _a_duration(cls, v: str) -> str:
        if v and not re.fullmatch(r"\d+[smhdw]", v.strip()):
            raise ValueError("a duration such as 7d, 2w or 12h (or empty)")
        return v.strip()
