/* libFuzzer target: the CSV importer (see fuzz_import.h). */
#define FUZZ_FORMAT	STORE_FORMAT_CSV
#define FUZZ_NAME	"fuzz.csv"
#include "fuzz_import.h"
