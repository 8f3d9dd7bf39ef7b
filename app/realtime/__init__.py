"""Realtime: the broker between instances, the per-game hub of sockets, the websocket endpoints."""
