#pragma once
#define MATRIX_N 256
