#include "dist/ranks.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

#include "common/error.h"
#include "common/parallel.h"

#if GPUMEMSIM_HAVE_MPI
#include <mpi.h>
#endif

namespace gms::dist {
namespace {

bool g_mpi = false;  // MPI_Init ran (a launcher started us)
int g_rank = 0, g_size = 1;

constexpr int kTagResult = 17;

// The items of `todo` that rank r computes.
std::vector<std::size_t> shard(const std::vector<std::size_t>& todo, int r, int n) {
  std::vector<std::size_t> mine;
  for (std::size_t j = static_cast<std::size_t>(r); j < todo.size(); j += static_cast<std::size_t>(n))
    mine.push_back(todo[j]);
  return mine;
}

bool started_by_launcher() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE", "MPI_LOCALNRANKS"})
    if (std::getenv(v)) return true;
  return false;
}

}  // namespace

void init(int& argc, char**& argv) {
#if GPUMEMSIM_HAVE_MPI
  if (!started_by_launcher()) return;
  int provided = 0;
  // SERIALIZED: worker threads send their results, one at a time (under parallel_for's lock).
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  SIM_ASSERT(provided >= MPI_THREAD_SERIALIZED, "the MPI library gives thread level " << provided);
  g_mpi = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
#else
  (void)argc;
  (void)argv;
  if (started_by_launcher() && std::getenv("OMPI_COMM_WORLD_RANK") && std::string(std::getenv("OMPI_COMM_WORLD_RANK")) != "0")
    throw ConfigError("this gpumemsim was built without MPI (libopenmpi-dev); every rank would repeat the whole "
                      "job: run it without mpirun, or rebuild with MPI");
#endif
}

void finalize() {
#if GPUMEMSIM_HAVE_MPI
  if (g_mpi) {
    int done = 0;
    MPI_Finalized(&done);
    if (!done) MPI_Finalize();
  }
#endif
}

int rank() { return g_rank; }
int size() { return g_size; }
bool is_root() { return g_rank == 0; }

std::string broadcast_from_root(const std::string& text) {
#if GPUMEMSIM_HAVE_MPI
  if (g_size > 1) {
    std::uint64_t n = text.size();
    MPI_Bcast(&n, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    std::string out = is_root() ? text : std::string(n, '\0');
    if (n > 0) MPI_Bcast(out.data(), static_cast<int>(n), MPI_CHAR, 0, MPI_COMM_WORLD);
    return out;
  }
#endif
  return text;
}

void map_to_root(const std::vector<std::size_t>& todo, unsigned jobs,
                 const std::function<std::string(std::size_t)>& compute,
                 const std::function<void(std::size_t, const std::string&)>& on_result) {
  const std::vector<std::size_t> mine = shard(todo, g_rank, g_size);
  std::vector<std::string> results(mine.size());
  std::mutex deliver;  // on rank 0: local and received results reach on_result one at a time
  auto local = [&](auto&& done) {
    parallel_for(
        mine.size(), jobs, [&](std::size_t j) { results[j] = compute(mine[j]); }, done);
  };
#if GPUMEMSIM_HAVE_MPI
  if (g_size > 1) {
    if (!is_root()) {
      local([&](std::size_t j) {  // runs under parallel_for's lock: one MPI call at a time
        std::string msg(sizeof(std::uint64_t), '\0');
        const std::uint64_t index = mine[j];
        std::memcpy(msg.data(), &index, sizeof index);
        msg += results[j];
        MPI_Send(msg.data(), static_cast<int>(msg.size()), MPI_CHAR, 0, kTagResult, MPI_COMM_WORLD);
        results[j].clear();
      });
      return;
    }
    std::thread worker([&] {
      local([&](std::size_t j) {
        std::lock_guard<std::mutex> lock(deliver);
        on_result(mine[j], results[j]);
      });
    });
    // Rank 0's main thread is its only MPI caller while the worker computes.
    const std::size_t remote = todo.size() - mine.size();
    for (std::size_t got = 0; got < remote; ++got) {
      MPI_Status st;
      MPI_Probe(MPI_ANY_SOURCE, kTagResult, MPI_COMM_WORLD, &st);
      int bytes = 0;
      MPI_Get_count(&st, MPI_CHAR, &bytes);
      std::string msg(static_cast<std::size_t>(bytes), '\0');
      MPI_Recv(msg.data(), bytes, MPI_CHAR, st.MPI_SOURCE, kTagResult, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      SIM_ASSERT(msg.size() >= sizeof(std::uint64_t), "short result message from rank " << st.MPI_SOURCE);
      std::uint64_t index = 0;
      std::memcpy(&index, msg.data(), sizeof index);
      std::lock_guard<std::mutex> lock(deliver);
      on_result(index, msg.substr(sizeof index));
    }
    worker.join();
    return;
  }
#endif
  local([&](std::size_t j) { on_result(mine[j], results[j]); });
}

std::vector<std::string> map_all(std::size_t n, unsigned jobs, const std::function<std::string(std::size_t)>& compute) {
  std::vector<std::size_t> all(n);
  for (std::size_t i = 0; i < n; ++i) all[i] = i;
  std::vector<std::string> out(n);
  map_to_root(all, jobs, compute, [&](std::size_t i, const std::string& text) { out[i] = text; });
#if GPUMEMSIM_HAVE_MPI
  if (g_size > 1) {
    // Rank 0 holds every result; one broadcast of the whole vector, length-prefixed.
    std::string packed;
    if (is_root())
      for (const auto& s : out) {
        const std::uint64_t len = s.size();
        packed.append(reinterpret_cast<const char*>(&len), sizeof len);
        packed += s;
      }
    packed = broadcast_from_root(packed);
    std::size_t at = 0;
    for (std::size_t i = 0; i < n; ++i) {
      std::uint64_t len = 0;
      SIM_ASSERT(at + sizeof len <= packed.size(), "map_all: packed results too short at item " << i);
      std::memcpy(&len, packed.data() + at, sizeof len);
      at += sizeof len;
      out[i] = packed.substr(at, len);
      at += len;
    }
  }
#endif
  return out;
}

}  // namespace gms::dist
