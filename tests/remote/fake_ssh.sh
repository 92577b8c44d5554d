#!/bin/sh
# A stand-in for ssh in tests: takes ssh's options, then runs the remote command here, with
# HOME set to $FAKE_REMOTE_HOME (the "remote" machine's home). Host "down" fails the way an
# unreachable host does (exit 255); $FAKE_REMOTE_NO_RSYNC hides rsync from the remote's PATH;
# $FAKE_REMOTE_CUT=<bytes> breaks the connection of an rsync after that many bytes; $FAKE_REMOTE_PATH is
# the remote's PATH (else the caller's, less any folder holding a `deja`).
# $FAKE_SSH_LOG, when set, gets each invocation's arguments as one line (newlines as spaces). A shared connection is
# played too: `-o ControlMaster=auto` with a `ControlPath` makes that file (the "master"), and
# `-O exit` removes it.
[ -n "$FAKE_SSH_LOG" ] && printf '%s\n' "$(printf '%s' "$*" | tr '\n' ' ')" >>"$FAKE_SSH_LOG"
master= cpath= op=
while [ $# -gt 0 ]; do
  case "$1" in
    -o)
      case "$2" in
        ControlMaster=auto) master=1 ;;
        ControlPath=*) cpath=${2#ControlPath=} ;;
      esac
      shift 2
      ;;
    -O) op=$2 && shift 2 ;;
    -p | -i | -l | -F) shift 2 ;;
    -*) shift ;;
    *) break ;;
  esac
done
if [ "$op" = "exit" ]; then
  rm -f "$cpath"
  exit 0
fi
[ -n "$master" ] && [ -n "$cpath" ] && [ ! -e "$cpath" ] && : >"$cpath"
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
# The remote's PATH: $FAKE_REMOTE_PATH, else the caller's without a folder holding a `deja`
# (the tests' remote has none unless one is asked for; a caller's PATH holding one, as a
# user's shell does, made the probe run it: trial 139 M1).
if [ -z "$rpath" ]; then
  if [ -n "$FAKE_REMOTE_PATH" ]; then
    rpath=$FAKE_REMOTE_PATH
  else
    rpath=$(printf '%s\n' "$PATH" | tr ':' '\n' | while IFS= read -r d; do
      [ -n "$d" ] && [ ! -e "$d/deja" ] && printf '%s:' "$d"
    done)
    rpath=${rpath%:}
  fi
fi
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
