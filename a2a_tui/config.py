"""`.a2a/config.toml`, validated (imported only when the config is read or written)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Config(BaseModel):
    """`.a2a/config.toml`."""

    model_config = ConfigDict(extra="forbid")

    target_branch: str = Field(min_length=1)
    tmux_session: str = Field(default="", description="tmux session for this repository's panes")
    feedback_limit: int = Field(default=3, ge=0,
                                description="auto feedback stops after N rejections")
    # The repository's overrides of the user's settings, validated by a2a_tui.settings.
    roles: dict[str, Any] | None = None
    notify: dict[str, Any] | None = None
    stall: dict[str, Any] | None = None
    layout: dict[str, Any] | None = None
