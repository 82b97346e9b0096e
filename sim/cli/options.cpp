#include "cli/options.h"

#include <iostream>

#include "common/error.h"

namespace gms::cli {

bool parse_options(const std::vector<std::string>& args, po::options_description& desc, po::variables_map& vm,
                   const std::string& usage, const po::positional_options_description* positional) {
  desc.add_options()("help,h", "show this help");
  try {
    po::command_line_parser parser(args);
    parser.options(desc);
    if (positional) parser.positional(*positional);
    po::store(parser.run(), vm);
    if (vm.count("help")) {
      std::cout << usage << "\n" << desc << "\n";
      return false;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    throw ConfigError(std::string(e.what()) + " (see --help)");
  }
  return true;
}

}  // namespace gms::cli
