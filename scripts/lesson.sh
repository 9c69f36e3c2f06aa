# The lesson "Distributed Locks: A Real Double-Booking Bug, Fixed With a
# Redis Lock", end to end: its own commands, in its own order, each shown
# before it runs. Run it with `go run . scripts/lesson.sh`; it runs the
# same on a real Redis (`go run . -p 6379 scripts/lesson.sh`).
#
# What to look for:
#  1. without a lock, both bidders see count=0 and both book: 2 bookings
#     for a 1-seat slot, in every run (which name comes first varies);
#  2. with SET lock:room:2pm TOKEN NX PX 2000, one books, one is rejected;
#  3. a blind DEL by a client whose lock expired deletes the new owner's
#     lock: the last GET prints an empty line;
#  4. the Lua compare-and-delete deletes only with the right token: 1, then 0.
[ -n "$LOCKLAB" ] || cd "${0%/*}" # bash needs the folder; the lab finds its own scripts

show() { echo "\$ $*"; }

show docker run -d --name redis-lesson -p 6379:6379 redis:8-alpine
docker run -d --name redis-lesson -p 6379:6379 redis:8-alpine
show docker exec redis-lesson redis-cli DEL room:2pm:bookings
docker exec redis-lesson redis-cli DEL room:2pm:bookings

show './book_no_lock.sh alice & ./book_no_lock.sh bob & wait'
./book_no_lock.sh alice & ./book_no_lock.sh bob & wait
show docker exec redis-lesson redis-cli LRANGE room:2pm:bookings 0 -1
docker exec redis-lesson redis-cli LRANGE room:2pm:bookings 0 -1

show docker exec redis-lesson redis-cli DEL room:2pm:bookings lock:room:2pm
docker exec redis-lesson redis-cli DEL room:2pm:bookings lock:room:2pm
show './book_with_lock.sh alice token-alice & ./book_with_lock.sh bob token-bob & wait'
./book_with_lock.sh alice token-alice & ./book_with_lock.sh bob token-bob & wait
show docker exec redis-lesson redis-cli LRANGE room:2pm:bookings 0 -1
docker exec redis-lesson redis-cli LRANGE room:2pm:bookings 0 -1

show ./blind_unlock_demo.sh
./blind_unlock_demo.sh

release="if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end"
show docker exec redis-lesson redis-cli SET lock:demo my-token PX 5000 NX
docker exec redis-lesson redis-cli SET lock:demo my-token PX 5000 NX
show "docker exec redis-lesson redis-cli EVAL \"$release\" 1 lock:demo my-token   # correct token"
docker exec redis-lesson redis-cli EVAL \
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end" \
  1 lock:demo my-token
docker exec redis-lesson redis-cli SET lock:demo my-token PX 5000 NX > /dev/null
show "docker exec redis-lesson redis-cli EVAL \"$release\" 1 lock:demo wrong-token   # on a freshly re-set lock"
docker exec redis-lesson redis-cli EVAL "$release" 1 lock:demo wrong-token
