#pragma once
// The processes of one job: several when the CLI was started by an MPI launcher (mpirun, srun),
// one otherwise. Work is split over ranks by a fixed rule and gathered on rank 0, so a result never
// depends on how many ranks ran it. Without MPI in the build, or without a launcher, every call
// works as a single process (the same binary behaves as before).
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace gms::dist {

// Initialises MPI when a launcher started this process; call once from main, before any thread.
void init(int& argc, char**& argv);
// Ends MPI (if init started it); safe to call more than once.
void finalize();
int rank();
int size();
bool is_root();

// Rank 0's `text` on every rank (collective).
std::string broadcast_from_root(const std::string& text);

// Computes compute(i) for each i of `todo`, todo[j] on rank j % size(), with `jobs` threads per
// rank. On rank 0, on_result(i, text) runs for every item of every rank as it arrives (one call at a
// time, in arrival order); on other ranks it never runs. Collective: every rank calls it with the
// same `todo`.
void map_to_root(const std::vector<std::size_t>& todo, unsigned jobs,
                 const std::function<std::string(std::size_t)>& compute,
                 const std::function<void(std::size_t, const std::string&)>& on_result);

// compute(i) for i in [0, n), split over ranks; every rank returns all n results in index order
// (collective). For fits where each rank needs every score to take the same next step.
std::vector<std::string> map_all(std::size_t n, unsigned jobs, const std::function<std::string(std::size_t)>& compute);

}  // namespace gms::dist
