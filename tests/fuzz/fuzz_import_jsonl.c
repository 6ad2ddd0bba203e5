/* libFuzzer target: the JSON Lines importer (see fuzz_import.h). */
#define FUZZ_FORMAT	STORE_FORMAT_JSONL
#define FUZZ_NAME	"fuzz.jsonl"
#include "fuzz_import.h"
