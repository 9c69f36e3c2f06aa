# book_no_lock.sh <bidder-name>
count=$(docker exec redis-lesson redis-cli LLEN room:2pm:bookings)
if [ "$count" -lt 1 ]; then
  sleep 0.3   # simulate real processing time — a payment call, a confirmation email
  docker exec redis-lesson redis-cli RPUSH room:2pm:bookings "$1" > /dev/null
  echo "$1: booked (saw count=$count)"
else
  echo "$1: rejected (saw count=$count)"
fi
