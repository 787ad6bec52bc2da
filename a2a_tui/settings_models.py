"""The pydantic models that validate the user's settings (a2a_tui/settings.py builds them on
first use: pydantic costs ~0.1 s to import, so it is imported inside these functions)."""

# Imports inside functions: pydantic, for a command that validates a settings file.

from __future__ import annotations

from typing import Literal

from a2a_tui.profiles import CLIS

# The roles of a2a_tui/collab/roles.py (a layer above this one; tests/test_settings.py keeps
# the two equal).
ROLE_NAMES = ("ideation", "executive", "worker", "reviewer")


def section_models(strict) -> tuple[type, ...]:
    """The models of [roles.*], [clis.*], [stall.*], [notify], [layout] and [backup]."""
    from pydantic import BaseModel, Field, ValidationInfo, field_validator, model_validator

    class Role(BaseModel):
        model_config = strict
        cli: Literal["", *CLIS] = Field(default="", description="the agent CLI")  # type: ignore
        model: str = ""
        effort: str = ""
        options: list[str] = Field(default_factory=list)

    class Cli(BaseModel):
        model_config = strict
        model: str = ""
        effort: str = ""
        options: list[str] = Field(default_factory=list)

    class Stall(BaseModel):
        model_config = strict
        hint_after_s: float = Field(default=600.0, gt=0)
        board_after_s: float = Field(default=1800.0, gt=0)
        # A turn's layered limits (rule 5, panes/turns.py); 0: never.
        remind_after_s: float = Field(default=0.0, ge=0, description="a turn busy this long:"
                                      " a reminder on the board, once")
        stop_after_s: float = Field(default=0.0, ge=0, description="a turn with no signal from"
                                    " its CLI this long is stopped (its interrupt key)")
        cap_s: float = Field(default=0.0, ge=0, description="a turn busy this long is stopped,"
                             " whatever it signals")

        @model_validator(mode="after")
        def _board_after_hint(self, info: ValidationInfo):
            # One file may set one of the two: the rule holds for the merged values only.
            if not (info.context or {}).get("partial") and self.board_after_s < self.hint_after_s:
                raise ValueError("board_after_s must not be shorter than hint_after_s")
            return self

    class Notify(BaseModel):
        model_config = strict
        bell: bool = True
        status: bool = True

    class Layout(BaseModel):
        model_config = strict
        events_rows: int = Field(default=0, ge=0, le=60,
                                 description="0: about a quarter of the screen, else 3 to 60")

        @field_validator("events_rows")
        @classmethod
        def _enough(cls, v: int) -> int:
            if 0 < v < 3:
                raise ValueError("0 (about a quarter of the screen) or 3 to 60")
            return v

    class Backup(BaseModel):
        model_config = strict
        every_min: float = Field(default=60.0, ge=0, description="0: none on a schedule")
        keep: int = Field(default=5, ge=1, le=1000)

    return Role, Cli, Stall, Notify, Layout, Backup
