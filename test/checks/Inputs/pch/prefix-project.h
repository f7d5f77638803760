#include <cublas_v2.h>
#include "project.h"
