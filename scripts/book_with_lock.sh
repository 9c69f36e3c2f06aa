# book_with_lock.sh <bidder-name> <token>
acquired=$(docker exec redis-lesson redis-cli SET lock:room:2pm "$2" NX PX 2000)
if [ "$acquired" != "OK" ]; then
  echo "$1: could not acquire lock, rejected immediately"
  exit 0
fi
count=$(docker exec redis-lesson redis-cli LLEN room:2pm:bookings)
if [ "$count" -lt 1 ]; then
  sleep 0.3
  docker exec redis-lesson redis-cli RPUSH room:2pm:bookings "$1" > /dev/null
  echo "$1: booked (saw count=$count)"
else
  echo "$1: rejected (saw count=$count)"
fi
owner=$(docker exec redis-lesson redis-cli GET lock:room:2pm)
[ "$owner" == "$2" ] && docker exec redis-lesson redis-cli DEL lock:room:2pm > /dev/null
