module example.com/q

go 1.21
