"""What happened, turned into notices (app/services/notify.py): a hand-over after a move, a game
started or finished, a chat line naming a player, a clock with 12 hours left. Each notice's key
is the hand-over it reports, so reporting it twice writes it once."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import Player, Seat
from app.services.games import GameService, LiveGame
from app.services.notify import Notice, Notifier, mentioned


def _title(live: LiveGame) -> str:
    return getattr(live.ruleset, "name", live.ruleset.id)


class GameNotices:
    """Listens to the games, the chat and the clocks, and hands the notifier its notices."""

    def __init__(
        self, notifier: Notifier, games: GameService, sessions: async_sessionmaker[AsyncSession]
    ) -> None:
        self.notifier = notifier
        self.games = games
        self.sessions = sessions

    def _players(
        self, live: LiveGame, seats: set[int] | None = None, *, held_too: bool = False
    ) -> dict[int, str]:
        """Seat -> player id of the players (not bots; a held seat's player only if asked)."""
        return {
            seat: info["player_id"]
            for seat, info in live.seats.items()
            if info.get("player_id")
            and (held_too or not info.get("bot"))
            and (seats is None or seat in seats)
        }

    def _turn(self, live: LiveGame, seat: int, player_id: str, version: int) -> Notice:
        return Notice(
            player_id,
            "your_turn",
            f"turn:{live.id}:{seat}:{version}",
            f"Your turn in {_title(live)}",
            "It is your move.",
            f"/games/{live.id}",
            live.id,
            seat,
        )

    async def after_move(self, game_id: str, version: int) -> None:
        """A move was stored (the games' listener): the seats newly asked to act hear it's their
        turn; when the game is over, every player hears it."""
        live = self.games.loaded(game_id)
        if live is None or version < 1 or version >= len(live.to_act_at):
            return
        if live.finished and version == live.version:
            await self.notifier.send(
                [
                    Notice(
                        pid,
                        "game_finished",
                        f"finished:{game_id}:{seat}",
                        f"{_title(live)} is over",
                        "The game has ended; see the final scores.",
                        f"/games/{game_id}",
                        game_id,
                        seat,
                    )
                    for seat, pid in self._players(live, held_too=True).items()
                ]
            )
            return
        newly = set(live.to_act_at[version]) - set(live.to_act_at[version - 1])
        players = self._players(live, newly)
        if players:
            await self.notifier.send([self._turn(live, seat, pid, version) for seat, pid in players.items()])

    async def game_started(self, game_id: str) -> None:
        """A game began: every player hears it, and those asked to act first hear it's their turn."""
        live = await self.games.live(game_id)  # seats and the first to act: as at the start
        players = self._players(live)
        first = set(live.to_act_at[0]) if live.to_act_at else set()
        notices = [
            Notice(
                pid,
                "game_started",
                f"started:{game_id}:{seat}",
                f"{_title(live)} has started",
                "Your game has begun.",
                f"/games/{game_id}",
                game_id,
                seat,
            )
            for seat, pid in players.items()
        ]
        notices += [self._turn(live, seat, pid, 0) for seat, pid in players.items() if seat in first]
        await self.notifier.send(notices)

    async def chat_line(self, room_id: str, author_id: str | None, message: dict[str, Any]) -> None:
        """A chat line that names a seated player as @Name tells them (never its author)."""
        text = str(message.get("text", ""))
        if "@" not in text:
            return
        async with self.sessions() as session:
            names = {
                r.player_id: r.name
                for r in (
                    await session.execute(
                        select(Seat.player_id, Player.name)
                        .join(Player, Player.id == Seat.player_id)
                        .where(Seat.room_id == room_id)
                    )
                ).all()
                if r.player_id != author_id
            }
        await self.notifier.send(
            [
                Notice(
                    pid,
                    "mention",
                    f"mention:{room_id}:{message.get('id')}:{pid}",
                    f"{message.get('name', 'Someone')} mentioned you",
                    text[:140],
                    f"/rooms/{room_id}",
                )
                for pid in mentioned(text, names)
            ]
        )

    async def deadline(
        self, session: AsyncSession, game_id: str, room_id: str, seat: int, player_id: str, deadline: datetime
    ) -> None:
        """A turn clock has 12 hours left (the clock sweep's transaction, so the claim and the
        notice commit together)."""
        live = self.games.loaded(game_id)
        name = _title(live) if live is not None else "your game"
        if await self.notifier.enqueue(
            session,
            [
                Notice(
                    player_id,
                    "deadline",
                    f"deadline:{game_id}:{seat}:{deadline.isoformat()}",
                    f"12 hours left in {name}",
                    "Your clock runs out in 12 hours; move or a timeout applies.",
                    f"/games/{game_id}",
                    game_id,
                    seat,
                )
            ],
        ):
            self.notifier.wake()
