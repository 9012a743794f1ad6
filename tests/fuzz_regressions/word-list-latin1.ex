defmodule W do
  @f ~w(cafיייייי state payload)a
end
