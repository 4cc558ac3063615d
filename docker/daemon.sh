# Sourced by ./drover-compose-test and ./drover-verify --compose: Docker installed and a daemon answering, or a reason
# why not. `docker_ready LOGDIR` installs docker.io, docker-compose and debootstrap when missing (root and apt-get) and
# starts dockerd when none answers (root); it returns 1 with the reason in $docker_unready otherwise. A dockerd it
# started is in $dockerd_pid, and `docker_release` stops it again (call it on exit). With cgroup v1, `docker_weigh`
# weighs the "docker" cgroup like three busy host threads until `docker_release`: the kernel weighs the whole cgroup
# like one, so on a machine shared with builds every container together would get a few percent of a CPU.

dockerd_pid=
docker_unready=
_docker_shares_file=/sys/fs/cgroup/cpu/docker/cpu.shares
_docker_shares_before=

docker_ready() {
  local logs=$1 missing=() tool
  mkdir -p "$logs"
  for tool in docker dockerd docker-compose debootstrap; do
    command -v "$tool" > /dev/null || missing+=("$tool")
  done
  if ((${#missing[@]})); then
    if [[ $EUID -ne 0 ]] || ! command -v apt-get > /dev/null; then
      docker_unready="${missing[*]} missing, and installing them needs root and apt-get"
      return 1
    fi
    echo "installing docker.io docker-compose debootstrap ..."
    if ! { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q docker.io docker-compose \
      debootstrap; } > "$logs/apt.log" 2>&1; then
      docker_unready="apt-get could not install docker.io/docker-compose ($logs/apt.log)"
      return 1
    fi
  fi
  docker info > /dev/null 2>&1 && return 0
  if [[ $EUID -ne 0 ]]; then
    docker_unready="no Docker daemon answers, and starting one needs root"
    return 1
  fi
  dockerd > "$logs/dockerd.log" 2>&1 &
  dockerd_pid=$!
  for _ in $(seq 1 60); do
    docker info > /dev/null 2>&1 && return 0
    kill -0 "$dockerd_pid" 2> /dev/null || break
    sleep 0.5
  done
  docker info > /dev/null 2>&1 && return 0
  dockerd_pid=
  docker_unready="dockerd did not start: $(tail -1 "$logs/dockerd.log")"
  return 1
}

docker_weigh() {
  if [[ -w /sys/fs/cgroup/cpu/cgroup.procs ]] && mkdir -p "${_docker_shares_file%/*}" 2> /dev/null; then
    _docker_shares_before=$(cat "$_docker_shares_file")
    echo 3072 > "$_docker_shares_file"
  fi
}

docker_release() {
  if [[ -n "$_docker_shares_before" ]]; then echo "$_docker_shares_before" > "$_docker_shares_file" 2> /dev/null || true; fi
  if [[ -n "$dockerd_pid" ]]; then
    kill "$dockerd_pid" 2> /dev/null || true
    wait "$dockerd_pid" 2> /dev/null || true
  fi
}
