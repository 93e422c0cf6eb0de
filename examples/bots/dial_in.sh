#!/bin/sh
# A bot that dials in over HTTP/JSON with curl and jq (docs/referee.md#over-httpjson):
# it plays the first legal move that is not a Maraffa claim (a false claim would
# end the match). Usage: dial_in.sh URL TOKEN, e.g. dial_in.sh http://127.0.0.1:8081 T
set -eu
url=$1 token=$2
# The stream: one TableMessage a line; jq keeps the decisions' "SEQUENCE INDEX".
curl -sSN "$url/v1/tables:join" \
    -d "{\"hello\": {\"token\": \"$token\", \"protocolVersion\": 1}}" |
jq --unbuffered -r '.decision // empty
    | [.sequence, ([.request.legalMoves | to_entries[]
                    | select(.value.maraffa.claim == null) | .key][0] // 0)]
    | @tsv' |
while read -r sequence index; do
    curl -sS "$url/v1/tables:answer" -H "Authorization: Bearer $token" \
        -d "{\"answer\": {\"sequence\": \"$sequence\", \"response\": {\"index\": $index}}}" \
        >/dev/null
done
