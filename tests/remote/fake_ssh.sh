#!/bin/sh
# A stand-in for ssh in tests: takes ssh's options, then runs the remote command here, with
# HOME set to $FAKE_REMOTE_HOME (the "remote" machine's home). Host "down" fails the way an
# unreachable host does (exit 255); $FAKE_REMOTE_NO_RSYNC hides rsync from the remote's PATH;
# $FAKE_REMOTE_CUT=<bytes> breaks the connection of an rsync after that many bytes.
while [ $# -gt 0 ]; do
  case "$1" in
    -p | -o | -i | -l | -F) shift 2 ;;
    -*) shift ;;
    *) break ;;
  esac
done
host=$1
shift
if [ "$host" = "down" ]; then
  echo "ssh: connect to host down port 22: Connection refused" >&2
  exit 255
fi
if [ -n "$FAKE_REMOTE_NO_RSYNC" ]; then
  mkdir -p "$FAKE_REMOTE_HOME/.nobin" && rpath="$FAKE_REMOTE_HOME/.nobin"
  ln -sf "$(command -v sh)" "$FAKE_REMOTE_HOME/.nobin/sh"
  for t in uname printf; do p=$(command -v $t) && ln -sf "$p" "$FAKE_REMOTE_HOME/.nobin/$t"; done
fi
rpath=${rpath:-$PATH}
cd "$FAKE_REMOTE_HOME" || exit 255
if [ -n "$FAKE_REMOTE_CUT" ] && [ "${1#rsync}" != "$1" ]; then
  fifo=$(mktemp -u) && mkfifo "$fifo" || exit 255
  env -i HOME="$FAKE_REMOTE_HOME" PATH="$rpath" sh -c "$*" <&0 >"$fifo" &
  sender=$!
  head -c "$FAKE_REMOTE_CUT" <"$fifo"
  kill "$sender" 2>/dev/null
  rm -f "$fifo"
  exit 255
fi
exec env -i HOME="$FAKE_REMOTE_HOME" PATH="$rpath" sh -c "$*"
