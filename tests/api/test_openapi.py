"""OpenAPI at /openapi.json names every route of the wire contract and its schemas."""

CONTRACT = {
    ("post", "/api/players"),
    ("get", "/api/rulesets"),
    ("post", "/api/rooms"),
    ("get", "/api/rooms"),
    ("get", "/api/rooms/{room_id}"),
    ("post", "/api/rooms/{room_id}/join"),
    ("post", "/api/rooms/{room_id}/leave"),
    ("post", "/api/rooms/{room_id}/bots"),
    ("post", "/api/rooms/{room_id}/start"),
    ("get", "/api/games/{game_id}"),
    ("get", "/api/games/{game_id}/legal-moves"),
    ("post", "/api/games/{game_id}/moves"),
    ("get", "/api/games/{game_id}/log"),
}


def test_openapi_names_every_contract_route_and_schema(client):
    """Every route of the contract is documented, with request/response schemas and error bodies."""
    spec = client.get("/openapi.json").json()
    routes = {(method, path) for path, item in spec["paths"].items() for method in item}
    assert CONTRACT <= routes
    schemas = set(spec["components"]["schemas"])
    assert {
        "PlayerCreate",
        "PlayerCreated",
        "RoomCreate",
        "RoomPublic",
        "RoomJoin",
        "BotAdd",
        "GameDocument",
        "LegalMoves",
        "MoveSubmit",
        "MoveAccepted",
        "GameLog",
        "ErrorBody",
    } <= schemas
    move = spec["paths"]["/api/games/{game_id}/moves"]["post"]
    assert {"403", "409", "422"} <= set(move["responses"])
    assert move["responses"]["409"]["content"]["application/json"]["schema"]["$ref"].endswith("ErrorBody")
