"""A scripted model double for the reviewer and the classifier: answers in order, records prompts."""

from __future__ import annotations

import asyncio


class ScriptedModel:
    """Each call takes the next scripted answer: text is returned, an exception is raised."""

    def __init__(self, *answers: str | BaseException, delay: float = 0.0) -> None:
        self._answers = list(answers)
        self._delay = delay
        self.prompts: list[str] = []

    async def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if self._delay:
            await asyncio.sleep(self._delay)
        if not self._answers:
            raise AssertionError("the scripted model was called more times than scripted")
        answer = self._answers.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return answer

    @property
    def calls(self) -> int:
        return len(self.prompts)
