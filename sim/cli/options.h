#pragma once
// Shared Boost.Program_options plumbing for the subcommands.
#include <boost/program_options.hpp>
#include <string>
#include <vector>

namespace gms::cli {

namespace po = boost::program_options;

// Parses args against desc; prints help and returns false when --help was given. Option syntax
// errors become ConfigError (exit code 2).
bool parse_options(const std::vector<std::string>& args, po::options_description& desc, po::variables_map& vm,
                   const std::string& usage, const po::positional_options_description* positional = nullptr);

}  // namespace gms::cli
