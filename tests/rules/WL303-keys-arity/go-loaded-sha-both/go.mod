module example.com/limiter

go 1.21
