echo "resetting demo key:"
docker exec redis-lesson redis-cli DEL lock:demo

# slow_client: acquires with a short 500ms TTL, then takes 1000ms of real work
echo "slow_client acquiring:"
docker exec redis-lesson redis-cli SET lock:demo slow-client-token PX 500 NX
sleep 1

# meanwhile, 700ms in, slow_client's lock has already expired —
# fast_client legitimately acquires it fresh:
echo "fast_client acquiring after expiry:"
docker exec redis-lesson redis-cli SET lock:demo fast-client-token PX 5000 NX

# slow_client now finishes and blindly deletes, with no idea it's no longer the owner:
echo "slow_client blindly unlocking (no token check):"
docker exec redis-lesson redis-cli DEL lock:demo

echo "lock owner after slow_client's blind DEL:"
docker exec redis-lesson redis-cli GET lock:demo
