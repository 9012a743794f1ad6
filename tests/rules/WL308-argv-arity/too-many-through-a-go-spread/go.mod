module example.com/q

go 1.21

require github.com/redis/go-redis/v9 v9.0.0
