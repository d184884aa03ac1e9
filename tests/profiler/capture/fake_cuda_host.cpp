// SPDX-License-Identifier: MIT
// Stands in for a CUDA program where no driver can: it loads the library named by CUDA_INJECTION64_PATH and
// calls its InitializeInjection, as the driver's cuInit does, then exits with the code given as argument.
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>

int main(int argc, char** argv)
{
    if (const char* path = std::getenv("CUDA_INJECTION64_PATH")) {
        void* library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (!library) {
            std::fprintf(stderr, "fake_cuda_host: %s\n", dlerror());
            return 20;
        }
        auto initialize = reinterpret_cast<int (*)()>(dlsym(library, "InitializeInjection"));
        if (!initialize)
            return 21;
        initialize();
    }
    return argc > 1 ? std::atoi(argv[1]) : 0;
}
