#!/bin/sh
# kinrow at c594c82's search with the parameters spsa-31 found, as a Gomocup brain.
exec /work/exp/kinrow-base "$@" --params /work/exp/spsa3.txt
